package org.frontiergraph.worker.ui;

import io.micronaut.core.bind.ArgumentBinder;
import io.micronaut.core.convert.ArgumentConversionContext;
import io.micronaut.core.type.Argument;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.bind.binders.PostponedRequestArgumentBinder;
import io.micronaut.http.bind.binders.TypedRequestArgumentBinder;
import jakarta.inject.Singleton;
import java.security.Principal;
import java.util.Optional;

/**
 * Binds a route's {@link Principal} argument (the health endpoint's) to the caller {@link HttpAccessFilter} trusted:
 * after the filters ran (postponed), the request's user principal, or none. Micronaut has no such binder without
 * micronaut-security, so the endpoint would see no principal and show every caller the status alone.
 */
@Singleton
public class TrustedCallerBinder implements TypedRequestArgumentBinder<Principal>, PostponedRequestArgumentBinder<Principal> {
    @Override
    public Argument<Principal> argumentType() {
        return Argument.of(Principal.class);
    }

    @Override
    public ArgumentBinder.BindingResult<Principal> bind(ArgumentConversionContext<Principal> context, HttpRequest<?> request) {
        return ArgumentBinder.BindingResult.unsatisfied();   // the filters have not run yet: bound by bindPostponed
    }

    @Override
    public ArgumentBinder.BindingResult<Principal> bindPostponed(ArgumentConversionContext<Principal> context, HttpRequest<?> request) {
        Optional<Principal> p = request.getUserPrincipal();
        return p.isPresent() ? () -> p : ArgumentBinder.BindingResult.empty();
    }
}
