package dev.hotspare.testkit.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The layering rules every module of hotspare (and every module built on it) checks on its own classes with
 * ArchUnit: no package cycles, and no use of another module's {@code …internal} packages — implementation details
 * that may change in any release. hotspare-core checks its finer rules (pure planners, time at the bottom, metrics
 * on top) in its own test. Needs {@code com.tngtech.archunit:archunit-junit5} on the test class path.
 *
 * <pre>{@code
 * @Test
 * void layering() {
 *     ModuleArchitecture.check("dev.hotspare.redis");
 * }
 * }</pre>
 */
public final class ModuleArchitecture {

    private ModuleArchitecture() {
    }

    /**
     * The main (non-test) classes of the module whose root package is {@code root}.
     *
     * @param root the module's root package, e.g. dev.hotspare.redis
     */
    public static JavaClasses classesOf(String root) {
        return new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages(root);
    }

    /**
     * No cycle between the packages under {@code root}, {@code root} itself included (each package is a slice, named
     * from {@code root}'s parent down). Check it on classes imported from {@code root} only.
     *
     * @param root the module's root package
     * @return no cycle between the packages under {@code root}, {@code root} itself included (each package is a
     *         slice, named from {@code root}'s parent down)
     */
    public static ArchRule noPackageCycles(String root) {
        return slices().matching(root.substring(0, root.lastIndexOf('.')) + ".(**)").should().beFreeOfCycles()
                .allowEmptyShould(true);
    }

    /**
     * Classes under {@code root} use only public packages of the rest of hotspare: no {@code dev.hotspare…internal}
     * package but their own.
     *
     * @param root the module's root package
     * @return classes under {@code root} use only public packages of the rest of hotspare: no {@code
     *         dev.hotspare…internal} package but their own
     */
    public static ArchRule onlyPublicPackagesOfOthers(String root) {
        return noClasses().that().resideInAPackage(root + "..")
                .should().dependOnClassesThat(resideInAPackage("dev.hotspare..internal..").and(not(resideInAPackage(root + ".."))))
                .because("internal packages are implementation details, not API");
    }

    /**
     * Checks both rules on the main classes under {@code root}.
     *
     * @param root the module's root package
     */
    public static void check(String root) {
        JavaClasses classes = classesOf(root);
        noPackageCycles(root).check(classes);
        onlyPublicPackagesOfOthers(root).check(classes);
    }
}
