package dev.hotspare.fleet;

import java.util.Set;

/** Names of the built-in trigger types and policies. Plug-in policies add their own names at runtime. */
public final class TriggerTypes {

    /** Scales on the share of rooms that are occupied. */
    public static final String ROOM = "room";
    /** Scales on cpu usage against requests. */
    public static final String CPU = "cpu";
    /** Scales on memory usage against requests. */
    public static final String MEM = "mem";
    /** Room occupancy with a fixed delta (the older {@code delta} + {@code trigger} form). */
    public static final String LEGACY = "legacy";

    /** Maestro 10: rooms for the running matches plus a share of free match slots ({@code autoscaling.policy}). */
    public static final String ROOM_OCCUPANCY = "roomOccupancy";
    /** Maestro 10: a fixed number of ready rooms above the occupied ones ({@code autoscaling.policy}). */
    public static final String FIXED_BUFFER = "fixedBuffer";

    /** The built-in trigger types ({@code metricsTrigger[].type}). */
    public static final Set<String> BUILT_IN = Set.of(ROOM, CPU, MEM, LEGACY);
    /** The built-in policies of {@code autoscaling.policy}. */
    public static final Set<String> BUILT_IN_POLICIES = Set.of(ROOM_OCCUPANCY, FIXED_BUFFER);

    private TriggerTypes() {
    }
}
