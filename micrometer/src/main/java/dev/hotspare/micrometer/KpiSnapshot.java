package dev.hotspare.micrometer;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Tag;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The hotspare meters of a registry as data, for answers that programs read ({@code GET /kpis} of the fleet
 * service): one {@link Reading} per meter and tag set, with every statistic Micrometer measures for it. The
 * text form for people is {@link KpiSummary}.
 */
public final class KpiSnapshot {

    private KpiSnapshot() {
    }

    /**
     * One meter: its name, kind, tags and values.
     *
     * @param name   the meter name, e.g. {@code hotspare.scale.operations}
     * @param type   the Micrometer kind in lower case ({@code counter}, {@code gauge}, {@code timer}, ...)
     * @param tags   its tags, sorted by key
     * @param values each statistic in lower case ({@code count}, {@code value}, {@code total_time}, {@code max},
     *               ...); times are in seconds
     */
    public record Reading(String name, String type, Map<String, String> tags, Map<String, Double> values) {
        /** Copies the maps, so a reading never changes after it was taken. */
        public Reading {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
            tags = java.util.Collections.unmodifiableMap(new TreeMap<>(tags));
            values = java.util.Collections.unmodifiableMap(new TreeMap<>(values));
        }
    }

    /**
     * The readings of every meter whose name starts with {@code hotspare.}, sorted by name, then tags.
     *
     * @param registry the registry {@link MicrometerKpis} records into
     */
    public static List<Reading> of(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        List<Reading> out = new ArrayList<>();
        for (Meter meter : registry.getMeters()) {
            Meter.Id id = meter.getId();
            if (!id.getName().startsWith("hotspare.")) {
                continue;
            }
            Map<String, String> tags = new TreeMap<>();
            for (Tag tag : id.getTags()) {
                tags.put(tag.getKey(), tag.getValue());
            }
            Map<String, Double> values = new TreeMap<>();
            for (Measurement m : meter.measure()) {
                double value = m.getValue();
                if (Double.isFinite(value)) {
                    values.put(m.getStatistic().name().toLowerCase(Locale.ROOT), value);
                }
            }
            out.add(new Reading(id.getName(), id.getType().name().toLowerCase(Locale.ROOT), tags, values));
        }
        out.sort(Comparator.comparing(Reading::name).thenComparing(r -> r.tags().toString()));
        return out;
    }
}
