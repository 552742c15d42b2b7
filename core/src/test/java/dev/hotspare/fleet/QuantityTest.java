package dev.hotspare.fleet;

import dev.hotspare.fleet.SchedulerConfig.Quantity;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class QuantityTest {

    @ParameterizedTest
    @CsvSource({
            "1Gi, 1073741824",
            "128Mi, 134217728",
            "1000m, 1",
            "1, 1",
            "0.5, 0.5",
            "500M, 500000000",
            "100m, 0.1",
            "1Ki, 1024",
            "1e3, 1000",
            "2E-3, 0.002",
            "1.5Gi, 1610612736",
            "250u, 0.00025",
            "3k, 3000",
    })
    void parsesExactly(String text, String expected) {
        Quantity q = Quantity.parse(text);
        assertThat(q.value()).isEqualByComparingTo(new BigDecimal(expected));
        assertThat(q.toString()).isEqualTo(text);
    }

    @Test
    void equalityIsByAmountNotText() {
        assertThat(Quantity.parse("1000m")).isEqualTo(Quantity.parse("1")).hasSameHashCodeAs(Quantity.parse("1"));
        assertThat(Quantity.parse("1Ki")).isEqualTo(Quantity.parse("1024"));
        assertThat(Quantity.parse("1Gi")).isGreaterThan(Quantity.parse("1G"));
    }

    @Test
    void sumsHaveNoFloatNoise() {
        BigDecimal sum = Quantity.parse("100m").value().add(Quantity.parse("200m").value());
        assertThat(sum).isEqualByComparingTo("0.3");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "abc", "1GB", "1gi", "12 8Mi", "1.2.3", "Mi", "--1", "1e"})
    void rejectsNonQuantities(String text) {
        assertThat(Quantity.tryParse(text)).isEmpty();
        assertThatThrownBy(() -> Quantity.parse(text)).isInstanceOf(ValidationException.class)
                .hasMessageContaining("not a Kubernetes quantity");
    }
}
