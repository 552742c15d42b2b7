package dev.hotspare.spring.internal;

import dev.hotspare.spring.HotspareProperties;
import org.springframework.context.annotation.Conditional;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Matches when {@code hotspare.store} names {@link #value()} ({@code memory} when the property is absent), read
 * as leniently as Spring binds enums: case and dashes do not matter.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@Documented
@Conditional(OnStoreCondition.class)
public @interface ConditionalOnStore {

    /**
     * The store that must be chosen.
     */
    HotspareProperties.Store value();
}
