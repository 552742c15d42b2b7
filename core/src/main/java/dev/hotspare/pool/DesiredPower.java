package dev.hotspare.pool;

/** The power state the pool wants a member in ({@code spec.powerState} in Hive). */
public enum DesiredPower {
    /** Never set (Hive creates members with power unset and lets the pool decide). */
    UNSET,
    RUNNING,
    HIBERNATING
}
