package dev.hotspare.rollout;

/** What an op asks an agent to do. */
public enum OpKind {
    /** Check the target can be upgraded; changes nothing. */
    PRECHECK,
    /** Move the target to the rollout's version. */
    UPGRADE
}
