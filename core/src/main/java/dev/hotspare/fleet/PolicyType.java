package dev.hotspare.fleet;

import dev.hotspare.validation.Problem;

import java.util.List;
import java.util.Objects;

/**
 * What config validation knows of one scaling policy: its name, its kind, the parameters it declares and any rule
 * between them. Scaling policies describe themselves this way ({@code ScalingPolicies.types()}); the built-ins are
 * in {@link PolicyTypes#BUILT_IN}.
 *
 * @param name       the type name used in the config
 * @param kind       whether triggers name it ({@code metricsTrigger[].type}) or {@code autoscaling.policy} does
 * @param parameters the parameters it declares
 * @param declared   false for a type known only by name: its parameters are not checked
 * @param check      rules between parameter values, run once each value is acceptable on its own
 */
public record PolicyType(String name, Kind kind, List<PolicyParameter> parameters, boolean declared, ParameterCheck check) {

    /** Where a policy goes in the config. */
    public enum Kind {
        /** Maestro 9: a trigger type measuring utilization over a window of points. */
        TRIGGER,
        /** Maestro 10: {@code autoscaling.policy}, which names the number of rooms the fleet should have. */
        TARGET
    }

    /** Rules between the values of one policy's parameters. */
    @FunctionalInterface
    public interface ParameterCheck {
        /** No rules. */
        ParameterCheck NONE = (values, path) -> List.of();

        /**
         * The problems with {@code values}, each at {@code path + "." + name}.
         *
         * @param values the values, each acceptable on its own
         * @param path   where the parameters are in the config
         * @return the problems, empty when none
         */
        List<Problem> check(PolicyParameters values, String path);
    }

    /**
     * Checks the required parts.
     *
     * @throws NullPointerException when a part is missing
     * @param name the type name used in the config
     * @param kind whether triggers name it ({@code metricsTrigger[].type}) or {@code autoscaling.policy} does
     * @param parameters the parameters it declares
     * @param declared false for a type known only by name: its parameters are not checked
     * @param check rules between parameter values, run once each value is acceptable on its own
     */
    public PolicyType {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        parameters = List.copyOf(parameters);
        check = check == null ? ParameterCheck.NONE : check;
    }

    /**
     * A trigger type known only by name (its parameters, if any, are not checked).
     *
     * @param name the type name
     */
    public static PolicyType triggerNamed(String name) {
        return new PolicyType(name, Kind.TRIGGER, List.of(), false, ParameterCheck.NONE);
    }
}
