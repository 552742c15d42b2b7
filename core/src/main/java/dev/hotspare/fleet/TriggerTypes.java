package dev.hotspare.fleet;

import java.util.Set;

/** Names of the built-in trigger types. Plug-in policies add their own names at runtime. */
public final class TriggerTypes {

    /** Scales on the share of rooms that are occupied. */
    public static final String ROOM = "room";
    /** Scales on cpu usage against requests. */
    public static final String CPU = "cpu";
    /** Scales on memory usage against requests. */
    public static final String MEM = "mem";
    /** Room occupancy with a fixed delta (the older {@code delta} + {@code trigger} form). */
    public static final String LEGACY = "legacy";

    /** The built-in types. */
    public static final Set<String> BUILT_IN = Set.of(ROOM, CPU, MEM, LEGACY);

    private TriggerTypes() {
    }
}
