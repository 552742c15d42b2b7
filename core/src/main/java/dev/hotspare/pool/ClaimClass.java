package dev.hotspare.pool;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.hotspare.validation.Names;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.Problems;

/**
 * A claim's priority class. Pending claims of a higher {@code priority} are served before those of a lower one;
 * within one priority claims are served oldest first; and a claim that has waited the pool's
 * {@link PoolSpec#agingLimit() agingLimit} is served before every younger claim whatever their classes, so no
 * class starves. Classes with the same priority are one queue: the name is a label for people and metrics, the
 * priority alone decides.
 *
 * @param name     a DNS-1123 label (it is stored, tagged and logged)
 * @param priority higher goes first; 0 is the default class
 */
public record ClaimClass(String name, int priority) {

    /** The class of every claim that names none: {@code default}, priority 0. */
    public static final ClaimClass DEFAULT = new ClaimClass("default", 0);

    /**
     * Validates the name.
     *
     * @param name     a DNS-1123 label
     * @param priority higher goes first
     * @throws dev.hotspare.validation.ValidationException naming the bad name
     */
    public ClaimClass {
        Problems problems = new Problems();
        Names.dns1123LabelProblem(name).ifPresent(why -> problems.add("claimClass.name", name == null ? Problem.MISSING : name, why));
        problems.throwIfAny();
    }

    @JsonCreator
    static ClaimClass fromJson(@JsonProperty("name") String name, @JsonProperty("priority") Integer priority) {
        return new ClaimClass(name, priority == null ? 0 : priority);
    }
}
