package dev.hotspare.rollout;

/** Where a rollout is. The declaration order is the order a rollout moves through them. */
public enum Phase {
    /** Created, not started. */
    PENDING,
    /** Precheck ops: every node one at a time, then devices (up to maxParallel at once). */
    PRECHECKS,
    /** Waiting for the maintenance window to open. */
    WAITING_FOR_WINDOW,
    /** Upgrading nodes, one at a time, in name order. */
    NODES,
    /** The single services op, on the leader's agent. */
    SERVICES,
    /** Upgrading devices, group by group. */
    DEVICES,
    /** Every target upgraded (or skipped, or failed within maxFailures). */
    SUCCEEDED,
    /** A node, the services op or a precheck failed, or device failures exceeded maxFailures. */
    FAILED,
    /** Aborted by request; in-flight ops were cancelled. */
    ABORTED,
    /** The maintenance window closed with targets not started; they are listed in the state. */
    DEADLINE_EXCEEDED;

    /**
     * Whether the rollout is over.
     *
     * @return whether this is SUCCEEDED, FAILED, ABORTED or DEADLINE_EXCEEDED
     */
    public boolean terminal() {
        return ordinal() >= SUCCEEDED.ordinal();
    }
}
