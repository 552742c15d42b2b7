package dev.hotspare.rollout;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.hotspare.rollout.Target.TargetKind;
import dev.hotspare.validation.Names;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.Problems;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The nodes and devices a rollout covers, as observed. Validated on construction: every problem (bad name,
 * duplicate, bad label, missing version, SERVICES kind) is reported with its path, e.g. {@code targets[3].name}.
 *
 * @param targets nodes and devices, in any order (the rollout orders them by name itself)
 */
public record Inventory(List<Target> targets) {

    /**
     * Validates and normalises the components.
     *
     * @param targets nodes and devices, in any order (the rollout orders them by name itself)
     */
    public Inventory {
        targets = targets == null ? List.of() : List.copyOf(targets);
        Problems problems = new Problems();
        Map<TargetRef, Integer> seen = new HashMap<>();
        for (int i = 0; i < targets.size(); i++) {
            String path = "targets[" + i + "]";
            Target t = targets.get(i);
            if (t == null) {
                problems.add(path, Problem.MISSING, "target must not be null");
                continue;
            }
            if (t.kind() == null) {
                problems.add(path + ".kind", Problem.MISSING, "required field is missing; one of NODE, DEVICE");
            } else if (t.kind() == TargetKind.SERVICES) {
                problems.add(path + ".kind", t.kind(), "inventories hold NODE and DEVICE targets; the services op is implicit");
            }
            Optional<String> nameProblem = Names.dns1123LabelProblem(t.name());
            if (nameProblem.isPresent()) {
                problems.add(path + ".name", t.name() == null ? Problem.MISSING : t.name(), nameProblem.get());
            } else if (t.kind() != null) {
                Integer earlier = seen.putIfAbsent(t.ref(), i);
                if (earlier != null) {
                    problems.add(path + ".name", t.name(), "duplicate " + t.kind() + " name; also at targets[" + earlier + "]");
                }
            }
            Labels.check(problems, path + ".labels", t.labels());
            Labels.checkVersion(problems, path + ".version", t.version());
        }
        problems.throwIfAny();
    }

    @JsonCreator
    static Inventory fromJson(@JsonProperty("targets") List<Target> targets) {
        return new Inventory(targets);
    }

    /**
     * An inventory of {@code targets}.
     *
     * @param targets nodes and devices
     * @return the validated inventory
     */
    public static Inventory of(Target... targets) {
        return new Inventory(List.of(targets));
    }

    /**
     * The targets of {@code kind}, in name order.
     *
     * @param kind NODE or DEVICE
     */
    public List<Target> ofKind(TargetKind kind) {
        List<Target> out = new ArrayList<>();
        for (Target t : targets) {
            if (t.kind() == kind) {
                out.add(t);
            }
        }
        out.sort(Comparator.comparing(Target::name));
        return out;
    }

    /**
     * The target named by {@code ref}, if present.
     *
     * @param ref kind and name
     */
    public Optional<Target> find(TargetRef ref) {
        return targets.stream().filter(t -> t.ref().equals(ref)).findFirst();
    }
}
