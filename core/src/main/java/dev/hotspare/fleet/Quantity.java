package dev.hotspare.fleet;

import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.annotation.JsonSerialize;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Kubernetes resource quantity ({@code 1Gi}, {@code 128Mi}, {@code 1000m}, {@code 1}, {@code 0.5},
 * {@code 500M}, {@code 1e3}) parsed exactly into a {@link BigDecimal} of base units (cores for cpu, bytes
 * for memory). Never a double: {@code 0.1} cores plus {@code 0.2} cores is exactly {@code 0.3}.
 *
 * <p>Two quantities are equal when they denote the same amount ({@code 1000m} equals {@code 1}); the text
 * the user wrote is kept for {@link #toString()} and for writing the config back.
 */
@JsonSerialize(using = Quantity.Serializer.class)
@JsonDeserialize(using = Quantity.Deserializer.class)
public final class Quantity implements Comparable<Quantity> {

    private static final Pattern SYNTAX = Pattern.compile(
            "([+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?");

    private static final Map<String, BigDecimal> SUFFIXES = Map.ofEntries(
            Map.entry("", BigDecimal.ONE),
            Map.entry("n", new BigDecimal("1e-9")),
            Map.entry("u", new BigDecimal("1e-6")),
            Map.entry("m", new BigDecimal("1e-3")),
            Map.entry("k", new BigDecimal("1e3")),
            Map.entry("M", new BigDecimal("1e6")),
            Map.entry("G", new BigDecimal("1e9")),
            Map.entry("T", new BigDecimal("1e12")),
            Map.entry("P", new BigDecimal("1e15")),
            Map.entry("E", new BigDecimal("1e18")),
            Map.entry("Ki", BigDecimal.valueOf(1L << 10)),
            Map.entry("Mi", BigDecimal.valueOf(1L << 20)),
            Map.entry("Gi", BigDecimal.valueOf(1L << 30)),
            Map.entry("Ti", BigDecimal.valueOf(1L << 40)),
            Map.entry("Pi", BigDecimal.valueOf(1L << 50)),
            Map.entry("Ei", BigDecimal.valueOf(1L << 60)));

    private final BigDecimal value;
    private final String text;

    private Quantity(BigDecimal value, String text) {
        this.value = value;
        this.text = text;
    }

    /**
     * Parses a quantity.
     *
     * @throws ValidationException naming the text and the accepted forms when it is not a quantity
     */
    public static Quantity parse(String text) {
        return tryParse(text).orElseThrow(() -> new ValidationException(Problem.of("", text, syntaxHelp())));
    }

    /**
     * Parses a quantity, or empty when {@code text} is not one.
     */
    public static Optional<Quantity> tryParse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        String trimmed = text.trim();
        Matcher m = SYNTAX.matcher(trimmed);
        if (!m.matches()) {
            return Optional.empty();
        }
        BigDecimal number = new BigDecimal(m.group(1));
        String suffix = m.group(2) == null ? "" : m.group(2);
        BigDecimal multiplier;
        if (suffix.length() > 1 && (suffix.charAt(0) == 'e' || suffix.charAt(0) == 'E')) {
            int exponent;
            try {
                exponent = Integer.parseInt(suffix.substring(1));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
            if (Math.abs(exponent) > 100) {
                return Optional.empty();
            }
            multiplier = BigDecimal.ONE.scaleByPowerOfTen(exponent);
        } else {
            multiplier = SUFFIXES.get(suffix);
        }
        return Optional.of(new Quantity(number.multiply(multiplier).stripTrailingZeros(), trimmed));
    }

    /**
     * The quantity of {@code value} base units, written as a plain decimal.
     */
    public static Quantity of(BigDecimal value) {
        BigDecimal normal = value.stripTrailingZeros();
        return new Quantity(normal, normal.toPlainString());
    }

    /**
     * Why a text is not a quantity: the accepted forms.
     */
    public static String syntaxHelp() {
        return "not a Kubernetes quantity: expected a number with an optional suffix"
                + " (binary Ki Mi Gi Ti Pi Ei, decimal n u m k M G T P E, or an exponent e3), e.g. 1Gi, 128Mi, 1000m, 0.5";
    }

    /**
     * The amount in base units (cores, bytes), exact.
     */
    public BigDecimal value() {
        return value;
    }

    /**
     * Whether this quantity is greater than zero.
     */
    public boolean isPositive() {
        return value.signum() > 0;
    }

    /**
     * Whether this quantity is below zero.
     */
    public boolean isNegative() {
        return value.signum() < 0;
    }

    @Override
    public int compareTo(Quantity other) {
        return value.compareTo(other.value);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Quantity q && value.compareTo(q.value) == 0;
    }

    @Override
    public int hashCode() {
        return value.stripTrailingZeros().hashCode();
    }

    /** The text as written, e.g. {@code 128Mi}. */
    @Override
    public String toString() {
        return text;
    }

    /** Writes the quantity as the text the user wrote. */
    static final class Serializer extends ValueSerializer<Quantity> {
        @Override
        public void serialize(Quantity value, JsonGenerator gen, SerializationContext serializers) {
            gen.writeString(value.text);
        }
    }

    /** Reads a quantity from a string or a bare number ({@code cpu: 1} in YAML). */
    static final class Deserializer extends ValueDeserializer<Quantity> {
        @Override
        public Quantity deserialize(JsonParser p, DeserializationContext ctxt) {
            JsonToken token = p.currentToken();
            if (token != JsonToken.VALUE_STRING && token != JsonToken.VALUE_NUMBER_INT
                    && token != JsonToken.VALUE_NUMBER_FLOAT) {
                throw DatabindException.from(p, "expected a quantity",
                        new ValidationException(Problem.of("", token, "expected a quantity such as 1Gi or 500m")));
            }
            String text = p.getString();
            Optional<Quantity> parsed = tryParse(text);
            if (parsed.isEmpty()) {
                throw DatabindException.from(p, syntaxHelp(), new ValidationException(Problem.of("", text, syntaxHelp())));
            }
            return parsed.get();
        }
    }
}
