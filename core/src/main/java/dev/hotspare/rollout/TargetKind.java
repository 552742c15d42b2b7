package dev.hotspare.rollout;

/** What a rollout target is. Inventories hold NODE and DEVICE targets; SERVICES addresses the leader's services agent. */
public enum TargetKind {
    /** A control-plane node: upgraded one at a time, first. */
    NODE,
    /** The one services op, executed by the agent on the current leader node. */
    SERVICES,
    /** A device (smart NIC, appliance): upgraded last, group by group. */
    DEVICE
}
