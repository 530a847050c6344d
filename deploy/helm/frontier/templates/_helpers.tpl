{{/* The workers' name: the release's name and "-worker" (release "frontier": frontier-worker). */}}
{{- define "frontier.name" -}}
{{- printf "%s-worker" .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The labels every object carries; the selector is the same set. */}}
{{- define "frontier.labels" -}}
app.kubernetes.io/name: {{ include "frontier.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}
