package dev.hotspare.pool;

/** Lifecycle phase of a pool member. */
public enum MemberPhase {
    /** Being installed / created; not usable yet. */
    PROVISIONING,
    /** Installed and usable (its power state says whether it is running). */
    READY,
    /** Installation or the member itself failed; the pool replaces it. */
    FAILED,
    /** Being deleted; counts against {@code maxSize} and {@code maxConcurrent} until gone. */
    DELETING
}
