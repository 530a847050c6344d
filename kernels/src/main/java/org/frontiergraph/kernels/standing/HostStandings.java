package org.frontiergraph.kernels.standing;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.frontiergraph.kernels.engine.ResidentGraph;

/**
 * Standing answers repaired on the host: the batch's screen, then the touched answers' repairs side by side on the
 * common pool (each task writes only its own answer; the graph is only read, and what it caches lazily is built
 * first), each with its kind's budget, divided where a recompute would run faster ({@link RepairPolicy#hostDivisor}).
 * On a graph held in the wide form every repair gives up at once (they read int-indexed arrays): the batch's screen
 * still sets aside the answers it cannot touch, and the caller recomputes the others.
 */
class HostStandings implements Standings {
    final RepairPolicy policy;

    HostStandings(RepairPolicy policy) {
        this.policy = policy;
    }

    @Override
    public <A> Standing<A> open(StandingKind<A> kind, A answer, ResidentGraph engine) {
        Standing<A> s = new Standing<>(kind, answer);
        reset(s, answer, engine);
        return s;
    }

    @Override
    public <A> void reset(Standing<A> s, A answer, ResidentGraph engine) {
        s.answer = answer;
        s.placed = Standing.Placed.HOST;
        s.refusal = null;
    }

    @Override
    public void close(Standing<?> s) {}

    /** One answer's outcome while a batch is repaired. */
    static final class Step<A> {
        final Standing<A> s;
        A repaired;
        Delta delta;
        boolean onDevice;
        boolean intact = true;
        RuntimeException failure;

        Step(Standing<A> s) {
            this.s = s;
        }

        Standings.Outcome<A> outcome() {
            return new Standings.Outcome<>(s, repaired, delta, onDevice, intact, failure);
        }
    }

    @Override
    public Repairs repair(List<Standing<?>> answers, Batch batch, Consumer<List<Outcome<?>>> settledFirst) {
        long t0 = System.nanoTime();
        Screen screen = Screen.of(batch.graph(), batch.changes());
        Map<StandingKind<?>, Boolean> kinds = new IdentityHashMap<>();
        for (Standing<?> s : answers) kinds.put(s.kind, true);
        // (a graph in the wide form is not repaired on the host: nothing to build, e.g. a directed graph's transpose)
        if (!batch.graph().wide()) for (StandingKind<?> k : kinds.keySet()) k.prepare(batch.graph());
        Step<?>[] steps = new Step<?>[answers.size()];
        List<Integer> touched = new ArrayList<>(answers.size());
        for (int i = 0; i < steps.length; i++) {
            steps[i] = untouched(answers.get(i), screen);
            if (steps[i] == null) {
                steps[i] = new Step<>(answers.get(i));
                touched.add(i);
            }
        }
        long t1 = System.nanoTime();
        List<Integer> onHost = hostFirst(answers, touched, batch);
        int divisor = policy.hostDivisor(batch.resident().backend().equals("gpu"), answers.size());
        IntStream some = onHost.stream().mapToInt(Integer::intValue);
        (onHost.size() > 1 ? some.parallel() : some).forEach(i -> repairOnHost(steps[i], batch, divisor));
        long t2 = System.nanoTime();
        settledFirst(steps, settledFirst);
        long t2b = System.nanoTime();   // what the caller did with them is its own time
        int toDevice = 0;
        RuntimeException failure = null;
        try {
            toDevice = repairOnDevice(steps, batch, screen);
        } catch (DeviceFailure e) {
            toDevice = e.trees;
            failure = e.cause;
        }
        long t3 = System.nanoTime();
        List<Outcome<?>> out = new ArrayList<>(steps.length);
        for (Step<?> s : steps) out.add(s.outcome());
        return new Repairs(out, t1 - t0, t2 - t1, toDevice > 0 ? t3 - t2b : 0, touched.size(), toDevice, failure);
    }

    /**
     * Hands the answers the host settled (repaired, or untouched) to {@code settledFirst} when others are left for the
     * device or a recompute: a batch's light answers need not wait for its heavy ones.
     */
    private static void settledFirst(Step<?>[] steps, Consumer<List<Outcome<?>>> settledFirst) {
        if (settledFirst == null) return;
        int settled = 0;
        for (Step<?> s : steps) if (s.repaired != null) settled++;
        if (settled == 0 || settled == steps.length) return;
        List<Outcome<?>> first = new ArrayList<>(steps.length);
        for (Step<?> s : steps) first.add(s.repaired != null ? s.outcome() : null);
        settledFirst.accept(first);
    }

    /** A device repair that failed on {@code trees} answers (left not intact). */
    static final class DeviceFailure extends Exception {
        final int trees;
        final RuntimeException cause;

        DeviceFailure(int trees, RuntimeException cause) {
            super(cause);
            this.trees = trees;
            this.cause = cause;
        }
    }

    /** An answer the batch cannot touch: as a repair that changed nothing; null when it can. */
    private static <A> Step<A> untouched(Standing<A> s, Screen screen) {
        if (s.kind.touchedBy(screen, s.answer)) return null;
        Step<A> t = new Step<>(s);
        t.repaired = s.answer;
        t.delta = Delta.NONE;
        return t;
    }

    /** The touched answers the host tries first (the others wait for the device, untried). */
    List<Integer> hostFirst(List<Standing<?>> answers, List<Integer> touched, Batch batch) {
        return touched;
    }

    /** The budget divisor of {@code s}'s repair on the host, {@code divisor} for any answer. */
    int divisor(Standing<?> s, Batch batch, int divisor) {
        return divisor;
    }

    /** The host repaired {@code s} at {@code delta}. */
    void repairedOnHost(Standing<?> s, Delta delta) {}

    /** Repairs on the device what the host gave up on; returns how many answers it took. */
    int repairOnDevice(Step<?>[] steps, Batch batch, Screen screen) throws DeviceFailure {
        return 0;
    }

    private <A> void repairOnHost(Step<A> t, Batch batch, int divisor) {
        Standing<A> s = t.s;
        try {
            StandingKind.Update<A> u = s.kind.repair(batch.graph(), s.answer, batch.changes(), divisor(s, batch, divisor));
            if (u == null) return;
            s.answer = u.result();
            t.repaired = u.result();
            t.delta = u.delta();
            repairedOnHost(s, u.delta());
        } catch (RuntimeException e) {
            t.intact = false;
            t.failure = e;
        }
    }
}
