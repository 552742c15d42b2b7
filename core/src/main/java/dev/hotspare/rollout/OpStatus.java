package dev.hotspare.rollout;

/** The outcome an agent reports for an op. */
public enum OpStatus { SUCCEEDED, FAILED }
