package dev.hotspare.testkit.property;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A JUnit Jupiter test whose {@link PropertyCheck}s run {@link #tries()} tries each, from {@link #seed()} if one is
 * given:
 * <pre>{@code
 * @Property(tries = 300)
 * void sizesStayInBounds() {
 *     forAll(PoolGenerators.specs()).check(spec -> assertThat(...));
 * }
 * }</pre>
 * The system property {@code hotspare.property.seed} overrides the seed of every property in the run (to reproduce
 * a failure, whose message prints the seed).
 */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Test
@ExtendWith(PropertyExtension.class)
public @interface Property {

    /**
     * How many generated values each check of the test tries.
     *
     * @return the number of tries, at least 1
     */
    int tries() default PropertyCheck.DEFAULT_TRIES;

    /**
     * The seed of the checks, as a decimal long; empty for a fresh random seed each run.
     */
    String seed() default "";
}
