package dev.hotspare.rollout;

/** The outcome an agent reports for an op. */
public enum OpStatus {
    /** The op did what it was asked. */
    SUCCEEDED,
    /** The op failed; the message says why. */
    FAILED
}
