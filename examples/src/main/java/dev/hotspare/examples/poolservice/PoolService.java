package dev.hotspare.examples.poolservice;

import dev.hotspare.kpi.KpiListener;
import dev.hotspare.pool.Claim.ClaimService;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.Member.ObservedPower;
import dev.hotspare.pool.PoolPlan;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.pool.runtime.PoolController.ClaimExplanation;
import dev.hotspare.pool.runtime.PoolController.PoolDeletedException;
import dev.hotspare.pool.runtime.PoolListener;
import dev.hotspare.pool.spi.ClaimStore;
import dev.hotspare.pool.spi.ClaimStore.ClaimExistsException;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.time.TaskScheduler;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A Hive-style cluster pool as a small service: one {@link PoolController} over any {@link MemberDriver}
 * (in memory, or Kubernetes custom resources) and {@link ClaimStore}, taking claims as {@link PoolCommand}s and
 * printing what the pool does and why ({@link EventLog}). Optionally it makes claims itself on a schedule
 * ({@link Script}), starting once the pool has settled, and finishes when every scripted claim was served and,
 * with {@code hibernateAfter}, every claimed member has hibernated.
 *
 * <p>Extra {@link PoolListener}s (metrics, for instance) see every pass and assignment alongside the printer.
 */
public final class PoolService implements AutoCloseable {

    /**
     * Claims the service makes by itself: {@code count} claims named {@code demo-1..}, one every {@code every},
     * each with {@code lifetime} (empty: held until the service stops).
     */
    public record Script(int count, Duration every, Optional<Duration> lifetime) {
        public Script {
            Objects.requireNonNull(every, "every");
            Objects.requireNonNull(lifetime, "lifetime");
        }
    }

    private final PoolSpec spec;
    private final MemberDriver driver;
    private final ClaimStore claims;
    private final TaskScheduler scheduler;
    private final PrintWriter out;
    private final Optional<Script> script;
    private final EventLog log;
    private final PoolController controller;
    private final Map<String, ClaimHandle> handles = new ConcurrentHashMap<>();
    private final List<String> scripted = new CopyOnWriteArrayList<>();
    private final CompletableFuture<String> finished = new CompletableFuture<>();
    private volatile boolean scriptStarted;
    private AutoCloseable memberWatch;

    private PoolService(Builder b) {
        this.spec = b.spec;
        this.driver = b.driver;
        this.claims = b.claims;
        this.scheduler = b.scheduler;
        this.out = b.out;
        this.script = b.script;
        Instant start = scheduler.clock().instant();
        this.log = new EventLog(out, start, () -> spec, claims, id -> driver.find(spec.name(), id));
        List<PoolListener> listeners = new ArrayList<>();
        listeners.add(log);
        listeners.add(new PoolListener() {
            @Override
            public void onPlanApplied(String pool, PoolPlan plan, Instant now) {
                afterPass(plan, now);
            }
        });
        listeners.addAll(b.listeners);
        this.controller = PoolController.builder(spec).memberDriver(driver).claimStore(claims).scheduler(scheduler)
                .resyncPeriod(b.resyncPeriod).listener(PoolListener.all(fanOut(listeners), b.kpis)).build();
    }

    /** A service for pool {@code spec} on {@code driver} and {@code claims}, printing to {@code out}. */
    public static Builder builder(PoolSpec spec, MemberDriver driver, ClaimStore claims, TaskScheduler scheduler,
                                  PrintWriter out) {
        return new Builder(spec, driver, claims, scheduler, out);
    }

    /** Prints the pool settings, starts watching members and starts the controller. */
    public synchronized PoolService start() {
        if (memberWatch != null) {
            return this;
        }
        log.line(now(), "pool", String.format("%s: size %d, runningCount %d, hibernateAfter %s, maxSize %s, template %s%s",
                spec.name(), spec.size(), spec.runningCount(), spec.hibernateAfter().map(DurationText::format).orElse("-"),
                spec.maxSize().isPresent() ? spec.maxSize().getAsInt() : "-", spec.templateVersion(),
                script.map(s -> String.format("; script: %d claims every %s once the pool has settled", s.count(),
                        DurationText.format(s.every()))).orElse("")));
        memberWatch = driver.watch(spec.name(), event -> log.onMemberEvent(event, now()));
        controller.start();
        return this;
    }

    /** Completes with a reason when the script is done or {@code quit} was given. */
    public CompletableFuture<String> finished() {
        return finished;
    }

    /** The controller, for callers that want to reconcile or read the last plan. */
    public PoolController controller() {
        return controller;
    }

    /** Carries out one command; prints its outcome. */
    public void handle(PoolCommand command) {
        if (command instanceof PoolCommand.Claim c) {
            claim(c.name(), c.lifetime());
        } else if (command instanceof PoolCommand.Release r) {
            release(r.name());
        } else if (command instanceof PoolCommand.Explain e) {
            explain(e.name());
        } else if (command instanceof PoolCommand.Delete) {
            delete();
        } else if (command instanceof PoolCommand.Status) {
            printStatus();
        } else if (command instanceof PoolCommand.Help) {
            log.line(now(), "help", CommandParser.USAGE);
        } else if (command instanceof PoolCommand.Quit) {
            finished.complete("quit");
        }
    }

    /** Submits a claim; the pool serves it oldest-first with the oldest running member. */
    public Optional<ClaimHandle> claim(String name, Optional<Duration> lifetime) {
        try {
            ClaimHandle handle = controller.claim(name, lifetime);
            handles.put(name, handle);
            log.line(now(), "claim", name + " submitted" + lifetime.map(l -> ", lifetime " + DurationText.format(l)).orElse(""));
            handle.member().whenComplete((m, e) -> handles.remove(name, handle));
            return Optional.of(handle);
        } catch (ClaimExistsException e) {
            log.line(now(), "error", "claim.name: bad value '" + name + "': a live claim of that name exists");
            return Optional.empty();
        } catch (PoolDeletedException e) {
            log.line(now(), "error", e.getMessage());
            return Optional.empty();
        }
    }

    /** Ends a claim; its member is deleted and the pool refills. */
    public boolean release(String name) {
        handles.remove(name);
        boolean wasLive = controller.release(name);
        if (wasLive) {
            log.line(now(), "release", name + " released by the user; its member is deleted, the pool refills");
        } else {
            log.line(now(), "error", "release.name: bad value '" + name + "': no live claim of that name");
        }
        return wasLive;
    }

    /**
     * Prints why claim {@code name} waits, or what it holds, with its created / assigned / ready times and its wait
     * by stage.
     *
     * @param name the claim
     */
    public void explain(String name) {
        Optional<ClaimExplanation> explained = controller.explain(name);
        if (explained.isEmpty()) {
            log.line(now(), "error", "explain.name: bad value '" + name + "': no live claim of that name");
            return;
        }
        ClaimExplanation e = explained.get();
        log.line(now(), "explain", name + ": " + StatusTable.describe(e.reason(), log::at) + "; created "
                + log.at(e.claim().createdAt()) + e.claim().assignedAt().map(a -> ", assigned " + log.at(a)).orElse("")
                + e.claim().readyAt().map(r -> ", ready " + log.at(r)).orElse("") + "; waited " + StatusTable.describe(e.waited()));
    }

    /** Deletes the pool; the service finishes once the last member is gone. */
    public void delete() {
        log.line(now(), "pool", spec.name() + " deleting: new claims are refused, unclaimed members are deleted, "
                + "claimed members stay until released");
        controller.delete().thenRun(() -> {
            log.line(now(), "pool", spec.name() + " deleted: no member left");
            finished.complete("pool deleted");
        });
    }

    /** Prints the per-member state table. */
    public void printStatus() {
        List<String> lines = StatusTable.render(controller.spec(), driver.list(spec.name()), claims.live(spec.name()), now(),
                controller.typicalDurations(), log::at);
        synchronized (log) {
            for (String line : lines) {
                out.println(line);
            }
            int[] served = log.servedCounts();
            out.printf("served so far: %d hot, %d warm, %d cold%n", served[ClaimService.HOT.ordinal()],
                    served[ClaimService.WARM.ordinal()], served[ClaimService.COLD.ordinal()]);
            out.flush();
        }
    }

    /** Served claims so far: hot, warm, cold. */
    public int[] servedCounts() {
        return log.servedCounts();
    }

    private void afterPass(PoolPlan plan, Instant now) {
        if (script.isEmpty() || finished.isDone()) {
            return;
        }
        Script s = script.get();
        if (!scriptStarted && plan.isEmpty() && settled()) {
            scriptStarted = true;
            log.line(now, "script", "pool settled; " + s.count() + " claims follow, one every " + DurationText.format(s.every()));
            for (int i = 1; i <= s.count(); i++) {
                String name = "demo-" + i;
                scheduler.schedule(s.every().multipliedBy(i - 1), () -> {
                    if (!finished.isDone()) {
                        scripted.add(name);
                        claim(name, s.lifetime());
                    }
                });
            }
        } else if (scriptStarted && scripted.size() == s.count() && scriptDone()) {
            log.line(now, "script", "done: every scripted claim served"
                    + (spec.hibernateAfter().isPresent() ? " and every claimed member hibernated after hibernateAfter" : ""));
            finished.complete("script done");
        }
    }

    /** No member provisioning or between power states: the pool has reached what it asked for. */
    private boolean settled() {
        for (Member m : driver.list(spec.name())) {
            if (m.phase() != MemberPhase.READY || (m.observedPower() != ObservedPower.RUNNING
                    && m.observedPower() != ObservedPower.HIBERNATING)) {
                return false;
            }
        }
        return true;
    }

    private boolean scriptDone() {
        List<Member> members = driver.list(spec.name());
        for (String name : scripted) {
            Optional<dev.hotspare.pool.Claim> claim = claims.find(spec.name(), name);
            if (claim.isPresent() && !claim.get().isAssigned()) {
                return false;
            }
            if (spec.hibernateAfter().isPresent()) {
                for (Member m : members) {
                    if (m.claimName().filter(name::equals).isPresent() && m.phase() != MemberPhase.DELETING
                            && m.observedPower() != ObservedPower.HIBERNATING) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    private Instant now() {
        return scheduler.clock().instant();
    }

    private static PoolListener fanOut(List<PoolListener> listeners) {
        List<PoolListener> copy = List.copyOf(listeners);
        return new PoolListener() {
            @Override
            public void onPlanApplied(String pool, PoolPlan plan, Instant now) {
                copy.forEach(l -> l.onPlanApplied(pool, plan, now));
            }

            @Override
            public void onClaimAssigned(String pool, PoolPlan.Assignment assignment, Member memberBefore) {
                copy.forEach(l -> l.onClaimAssigned(pool, assignment, memberBefore));
            }
        };
    }

    /** Stops the controller and the member watch. The driver, store and scheduler stay open: they are the caller's. */
    @Override
    public synchronized void close() {
        controller.close();
        if (memberWatch != null) {
            try {
                memberWatch.close();
            } catch (Exception e) {
                // the watch handle of the built-in drivers does not throw; nothing to undo
            }
        }
        finished.complete("closed");
    }

    /** Builder for {@link PoolService}. */
    public static final class Builder {
        private final PoolSpec spec;
        private final MemberDriver driver;
        private final ClaimStore claims;
        private final TaskScheduler scheduler;
        private final PrintWriter out;
        private final List<PoolListener> listeners = new ArrayList<>();
        private Optional<Script> script = Optional.empty();
        private KpiListener kpis = KpiListener.NONE;
        private Duration resyncPeriod = Duration.ofSeconds(1);

        private Builder(PoolSpec spec, MemberDriver driver, ClaimStore claims, TaskScheduler scheduler, PrintWriter out) {
            this.spec = Objects.requireNonNull(spec, "spec");
            this.driver = Objects.requireNonNull(driver, "driver");
            this.claims = Objects.requireNonNull(claims, "claims");
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
            this.out = Objects.requireNonNull(out, "out");
        }

        /** Also tell {@code listener} about every pass and assignment (e.g. KPIs). */
        public Builder listener(PoolListener listener) {
            listeners.add(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        /** Report the pool's KPIs (claim waits, hot / warm / cold, members per state, scale operations) to {@code kpis}. */
        public Builder kpis(KpiListener kpis) {
            this.kpis = Objects.requireNonNull(kpis, "kpis");
            return this;
        }

        /** Make claims by script once the pool has settled. */
        public Builder script(Script script) {
            this.script = Optional.of(script);
            return this;
        }

        /**
         * How often the controller reconciles without an event (default 1 s). {@code hibernateAfter} is only noticed
         * by a pass, so this bounds how late a claimed member hibernates.
         */
        public Builder resyncPeriod(Duration resyncPeriod) {
            this.resyncPeriod = Objects.requireNonNull(resyncPeriod, "resyncPeriod");
            return this;
        }

        public PoolService build() {
            return new PoolService(this);
        }
    }
}
