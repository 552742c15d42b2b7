package dev.hotspare.rollout;

/** What happens to devices that match none of the spec's selectors. */
public enum UnmatchedDevices {
    /** They form a last group, after every selector group. */
    UPGRADE_LAST,
    /** They are left alone (recorded as skipped). */
    SKIP
}
