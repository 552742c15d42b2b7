package dev.hotspare.fleet.versions;

/** What a configuration change means for the rooms. */
public enum ChangeKind {
    /** Nothing changed. */
    NONE,
    /** Only how hotspare manages the rooms changed (autoscaling, forwarders, timeouts...): rooms stay. */
    MINOR,
    /** The rooms themselves changed (image, ports, resources, cmd, env, placement, shutdown): rooms are replaced. */
    MAJOR
}
