package dev.hotspare.memory;

import dev.hotspare.rollout.TargetRef;
import dev.hotspare.rollout.spi.RolloutAgentChannel;
import dev.hotspare.rollout.spi.RolloutAgentChannel.AgentOp;
import dev.hotspare.rollout.spi.RolloutAgentChannel.OpReport;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * In-memory {@link RolloutAgentChannel}. Listeners are called synchronously on the caller's thread, outside
 * the channel's lock, so an agent may report from inside {@code onOp}.
 */
public final class MemoryRolloutAgentChannel implements RolloutAgentChannel {

    private record Watch(TargetRef target, AgentListener listener) {
    }

    private record ReportListener(String rollout, Consumer<OpReport> listener) {
    }

    private final Map<TargetRef, LinkedHashMap<String, AgentOp>> pending = new LinkedHashMap<>();
    private final List<Watch> watches = new CopyOnWriteArrayList<>();
    private final List<ReportListener> reportListeners = new CopyOnWriteArrayList<>();
    private long published;

    @Override
    public void publish(AgentOp op) {
        synchronized (this) {
            pending.computeIfAbsent(op.target(), t -> new LinkedHashMap<>()).putIfAbsent(key(op.rollout(), op.opId()), op);
            published++;
        }
        for (Watch w : watches) {
            if (w.target().equals(op.target())) {
                w.listener().onOp(op);
            }
        }
    }

    @Override
    public void cancel(String rollout, TargetRef target, String opId) {
        AgentOp removed;
        synchronized (this) {
            LinkedHashMap<String, AgentOp> ops = pending.get(target);
            removed = ops == null ? null : ops.remove(key(rollout, opId));
        }
        if (removed != null) {
            for (Watch w : watches) {
                if (w.target().equals(target)) {
                    w.listener().onCancel(removed);
                }
            }
        }
    }

    @Override
    public synchronized List<AgentOp> pending(TargetRef target) {
        LinkedHashMap<String, AgentOp> ops = pending.get(target);
        return ops == null ? List.of() : List.copyOf(ops.values());
    }

    @Override
    public Subscription watch(TargetRef target, AgentListener listener) {
        Watch w = new Watch(target, listener);
        watches.add(w);
        for (AgentOp op : pending(target)) {
            listener.onOp(op);
        }
        return () -> watches.remove(w);
    }

    @Override
    public void report(OpReport report) {
        synchronized (this) {
            LinkedHashMap<String, AgentOp> ops = pending.get(report.target());
            if (ops != null) {
                ops.remove(key(report.rollout(), report.opId()));
            }
        }
        for (ReportListener l : new ArrayList<>(reportListeners)) {
            if (l.rollout().equals(report.rollout())) {
                l.listener().accept(report);
            }
        }
    }

    @Override
    public Subscription onReport(String rollout, Consumer<OpReport> listener) {
        ReportListener l = new ReportListener(rollout, listener);
        reportListeners.add(l);
        return () -> reportListeners.remove(l);
    }

    /**
     * Publishes so far, re-publishes included (for tests).
     *
     * @return the count
     */
    public synchronized long publishCount() {
        return published;
    }

    private static String key(String rollout, String opId) {
        return rollout + "\u0000" + opId;
    }
}
