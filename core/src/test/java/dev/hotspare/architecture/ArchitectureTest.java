package dev.hotspare.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import dev.hotspare.architecture.planted.PlantedPoolPlanner;
import dev.hotspare.architecture.planted.a.PlantedA;
import dev.hotspare.architecture.planted.b.PlantedB;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZonedDateTime;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The layering of hotspare-core, as docs/architecture.md states it: features first, then layers. Each rule is
 * checked on the real classes, and each is shown to fail on a planted violation (classes under
 * {@code dev.hotspare.architecture.planted}, in test sources only), so none can hold vacuously.
 */
class ArchitectureTest {

    /**
     * The pure packages: models and planners. No ports, runtime, adapters, network, SQL or clock reading. An
     * {@code …internal} package listed here is pure too, so the pure packages may use it.
     */
    static final String[] PURE = {"dev.hotspare.pool", "dev.hotspare.pool.internal", "dev.hotspare.pool.sizing", "dev.hotspare.fleet.plan", "dev.hotspare.fleet.autoscale",
            "dev.hotspare.fleet.autoscale.internal", "dev.hotspare.fleet.versions", "dev.hotspare.rollout", "dev.hotspare.validation",
            "dev.hotspare.ownership"};

    static final JavaClasses CORE = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.hotspare");

    /**
     * Every package under {@code root}, {@code root} included, is a slice; no cycle between them. An {@code …internal}
     * package belongs to the slice of the package above it: it is that package's implementation, moved out of the
     * public API, so the two use each other as one package's classes would.
     */
    static ArchRule noPackageCycles(String root) {
        String parent = root.substring(0, root.lastIndexOf('.') + 1);
        SliceAssignment packages = new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass c) {
                String name = c.getPackageName();
                if (!(name + ".").startsWith(root + ".")) {
                    return SliceIdentifier.ignore();
                }
                int internal = (name + ".").indexOf(".internal.");
                return SliceIdentifier.of((internal < 0 ? name : name.substring(0, internal)).substring(parent.length()));
            }

            @Override
            public String getDescription() {
                return "packages under " + root + ", each internal package with the one above it";
            }
        };
        return slices().assignedFrom(packages).should().beFreeOfCycles();
    }

    static ArchRule purePackagesDecideWithoutSideEffects(String... pure) {
        return noClasses().that().resideInAnyPackage(pure)
                .should().dependOnClassesThat(resideInAnyPackage("..spi..", "..runtime..", "..internal..",
                        "dev.hotspare.memory..", "dev.hotspare.sim..", "dev.hotspare.kpi..", "dev.hotspare.fleet.lock..",
                        "dev.hotspare.fleet.events..", "io.lettuce..", "io.fabric8..", "org.postgresql..", "java.net..",
                        "java.sql..", "javax.sql..").and(DescribedPredicate.not(resideInAnyPackage(pure))))
                .orShould().dependOnClassesThat().belongToAnyOf(Clock.class)
                .orShould().callMethod(Instant.class, "now")
                .orShould().callMethod(LocalDateTime.class, "now")
                .orShould().callMethod(ZonedDateTime.class, "now")
                .orShould().callMethod(System.class, "currentTimeMillis")
                .orShould().callMethod(System.class, "nanoTime")
                .because("planners take (spec, observed state, now) and return a value: no I/O, no clock");
    }

    static ArchRule timeImportsNothingOfOurs(String time, String root) {
        return noClasses().that().resideInAPackage(time + "..")
                .should().dependOnClassesThat(resideInAPackage(root + "..").and(DescribedPredicate.not(resideInAPackage(time + ".."))))
                .because("time is the bottom layer");
    }

    static ArchRule nothingBelowKpiImportsIt(String kpi) {
        return noClasses().that(DescribedPredicate.not(resideInAPackage(kpi + "..")))
                .should().dependOnClassesThat(resideInAPackage(kpi + ".."))
                .because("kpi implements the features' listeners from above");
    }

    /** The {@code RoomActions} methods that create or remove rooms (or write their statuses). */
    static final java.util.Set<String> ROOM_CHANGES = java.util.Set.of("scaleUp", "scaleDown", "removeDead",
            "createForRelease", "removeForRelease", "removeAll", "register", "forget", "expireAllocations");

    /**
     * Only the appliers change rooms: the watcher (plans, manual scale requests and the panic input among them) and
     * the release runner it and updates share (release commands), and a scheduler's deletion.
     */
    static ArchRule onlyAppliersChangeRooms(String actions, String... appliers) {
        java.util.List<String> allowed = java.util.List.of(appliers);
        DescribedPredicate<com.tngtech.archunit.core.domain.JavaClass> applier = new DescribedPredicate<>("an applier") {
            @Override
            public boolean test(com.tngtech.archunit.core.domain.JavaClass c) {
                String top = c.getName().contains("$") ? c.getName().substring(0, c.getName().indexOf('$')) : c.getName();
                return allowed.contains(c.getName()) || allowed.contains(top) || top.equals(actions);
            }
        };
        DescribedPredicate<com.tngtech.archunit.core.domain.JavaMethodCall> changesRooms =
                new DescribedPredicate<>("a method of " + actions + " that creates or removes rooms") {
                    @Override
                    public boolean test(com.tngtech.archunit.core.domain.JavaMethodCall call) {
                        return call.getTargetOwner().getName().equals(actions) && ROOM_CHANGES.contains(call.getName());
                    }
                };
        return noClasses().that(DescribedPredicate.not(applier)).should().callMethodWhere(changesRooms)
                .because("rooms change only where a plan or a release command is applied");
    }

    @Test
    void onlyTheWatcherTheReleaseRunnerAndDeleteChangeRooms() {
        String runtime = "dev.hotspare.fleet.runtime.";
        String internal = runtime + "internal.";
        onlyAppliersChangeRooms(internal + "RoomActions", internal + "Watcher", internal + "RollingReplace",
                internal + "SchedulerUpdates").check(CORE);
    }

    @Test
    void noPackageCycles() {
        noPackageCycles("dev.hotspare").check(CORE);
    }

    @Test
    void purePackagesImportNoPortRuntimeAdapterNetworkSqlOrClock() {
        purePackagesDecideWithoutSideEffects(PURE).check(CORE);
    }

    @Test
    void timeIsTheBottomLayer() {
        timeImportsNothingOfOurs("dev.hotspare.time", "dev.hotspare").check(CORE);
    }

    @Test
    void metricsSitOnTop() {
        nothingBelowKpiImportsIt("dev.hotspare.kpi").check(CORE);
    }

    @Test
    void everyRuleFailsOnAPlantedViolation() {
        JavaClasses planted = new ClassFileImporter().importClasses(PlantedA.class, PlantedB.class, PlantedPoolPlanner.class,
                dev.hotspare.pool.runtime.PoolController.class, dev.hotspare.kpi.KpiListener.class,
                dev.hotspare.time.TaskScheduler.class);
        String base = "dev.hotspare.architecture.planted";
        assertThatThrownBy(() -> noPackageCycles(base).check(planted)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("Cycle detected");
        assertThatThrownBy(() -> purePackagesDecideWithoutSideEffects(base).check(planted))
                .isInstanceOf(AssertionError.class).hasMessageContaining("PoolController").hasMessageContaining("Instant.now()");
        assertThatThrownBy(() -> timeImportsNothingOfOurs(base + ".a", "dev.hotspare").check(planted))
                .isInstanceOf(AssertionError.class).hasMessageContaining("PlantedB");
        assertThatThrownBy(() -> nothingBelowKpiImportsIt("dev.hotspare.kpi").check(planted))
                .isInstanceOf(AssertionError.class).hasMessageContaining("PlantedPoolPlanner");
        JavaClasses rooms = new ClassFileImporter().importPackages(base);
        String changes = base + ".PlantedRoomChanges";
        assertThatThrownBy(() -> onlyAppliersChangeRooms(changes + "$Actions", changes + "$Applier").check(rooms))
                .isInstanceOf(AssertionError.class).hasMessageContaining("Bypass").hasMessageNotContaining("Applier.apply");
    }
}
