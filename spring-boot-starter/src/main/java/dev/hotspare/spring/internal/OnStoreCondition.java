package dev.hotspare.spring.internal;

import dev.hotspare.spring.HotspareProperties;
import org.springframework.boot.autoconfigure.condition.ConditionMessage;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The condition of {@link ConditionalOnStore}; with no attribute (on {@link UnknownStore}) it matches a
 * {@code hotspare.store} that names no store, so the starter can say which values there are.
 */
public final class OnStoreCondition extends SpringBootCondition {

    /** The property this condition reads. */
    static final String PROPERTY = HotspareProperties.PREFIX + ".store";

    /** Spring instantiates conditions itself. */
    public OnStoreCondition() {
    }

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        String written = context.getEnvironment().getProperty(PROPERTY, HotspareProperties.Store.MEMORY.propertyValue());
        Optional<HotspareProperties.Store> chosen = parse(written);
        Map<String, Object> attributes = metadata.getAnnotationAttributes(ConditionalOnStore.class.getName());
        ConditionMessage.Builder message = ConditionMessage.forCondition("hotspare store", PROPERTY + "=" + written);
        if (attributes == null) {
            return chosen.isEmpty() ? ConditionOutcome.match(message.because("it names no store"))
                    : ConditionOutcome.noMatch(message.because("it names a store"));
        }
        HotspareProperties.Store wanted = (HotspareProperties.Store) attributes.get("value");
        return chosen.filter(wanted::equals).isPresent()
                ? ConditionOutcome.match(message.because("it is " + wanted.propertyValue()))
                : ConditionOutcome.noMatch(message.because("it is not " + wanted.propertyValue()));
    }

    /**
     * The store {@code written} names, read as Spring binds enums (case, dashes and underscores ignored).
     *
     * @param written the property's value
     * @return the store, or empty when it names none
     */
    static Optional<HotspareProperties.Store> parse(String written) {
        String canonical = written.replaceAll("[^A-Za-z0-9]", "").toLowerCase(Locale.ROOT);
        return Arrays.stream(HotspareProperties.Store.values()).filter(s -> s.propertyValue().equals(canonical)).findFirst();
    }

    /** Marks the configuration that reports a {@code hotspare.store} naming no store. */
    @java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)
    @java.lang.annotation.Target(java.lang.annotation.ElementType.TYPE)
    @org.springframework.context.annotation.Conditional(OnStoreCondition.class)
    public @interface UnknownStore {
    }
}
