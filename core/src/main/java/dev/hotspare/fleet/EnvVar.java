package dev.hotspare.fleet;

/**
 * An environment variable passed to every room's container.
 *
 * @param name  variable name
 * @param value its value (empty when not given)
 */
public record EnvVar(@Required String name, String value) {

    public EnvVar {
        name = name == null ? "" : name;
        value = value == null ? "" : value;
    }
}
