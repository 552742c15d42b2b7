package dev.hotspare.testkit.fleet;

import dev.hotspare.fleet.spi.UsageHistory;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The contract every {@link UsageHistory} passes: points come back oldest first, exactly as recorded
 * (decimal scale included), trimmed to {@code keep}, per (scheduler, metric), and clear removes a scheduler.
 */
public abstract class UsageHistoryContract {

    /**
     * A new, empty history.
     */
    protected abstract UsageHistory newHistory();

    protected UsageHistory history;
    protected String scheduler;
    private static int sequence;

    @BeforeEach
    void setUpHistory() {
        history = newHistory();
        scheduler = "history-" + System.identityHashCode(this) + "-" + (++sequence);
        history.clear(scheduler);
    }

    private static BigDecimal d(String s) {
        return new BigDecimal(s);
    }

    @Test
    void emptyHistoryHasNoPoints() {
        assertThat(history.latest(scheduler, "room", 10)).isEmpty();
    }

    @Test
    void pointsComeBackOldestFirstAndExact() {
        history.record(scheduler, "room", d("0.5"), 10);
        history.record(scheduler, "room", d("0.33333333333333333333"), 10);
        history.record(scheduler, "room", d("1"), 10);
        assertThat(history.latest(scheduler, "room", 10))
                .containsExactly(d("0.5"), d("0.33333333333333333333"), d("1"));
        assertThat(history.latest(scheduler, "room", 2)).containsExactly(d("0.33333333333333333333"), d("1"));
        assertThat(history.latest(scheduler, "room", 0)).isEmpty();
    }

    @Test
    void recordTrimsToKeep() {
        for (int i = 1; i <= 10; i++) {
            history.record(scheduler, "cpu", BigDecimal.valueOf(i), 3);
        }
        assertThat(history.latest(scheduler, "cpu", 100)).containsExactly(d("8"), d("9"), d("10"));
        history.record(scheduler, "cpu", d("11"), 1);
        assertThat(history.latest(scheduler, "cpu", 100)).containsExactly(d("11"));
    }

    @Test
    void metricsAndSchedulersAreSeparate() {
        String other = scheduler + "-b";
        history.clear(other);
        history.record(scheduler, "room", d("0.1"), 5);
        history.record(scheduler, "mem", d("0.2"), 5);
        history.record(other, "room", d("0.3"), 5);
        assertThat(history.latest(scheduler, "room", 5)).containsExactly(d("0.1"));
        assertThat(history.latest(scheduler, "mem", 5)).containsExactly(d("0.2"));
        assertThat(history.latest(other, "room", 5)).containsExactly(d("0.3"));
        history.clear(scheduler);
        assertThat(history.latest(scheduler, "room", 5)).isEmpty();
        assertThat(history.latest(scheduler, "mem", 5)).isEmpty();
        assertThat(history.latest(other, "room", 5)).containsExactly(d("0.3"));
        history.clear(other);
    }

    @Test
    void badInputIsRejected() {
        assertThatThrownBy(() -> history.record("bad:name", "room", d("1"), 5)).isInstanceOf(ValidationException.class);
        assertThatThrownBy(() -> history.record(scheduler, "a b", d("1"), 5)).isInstanceOf(ValidationException.class);
        assertThatThrownBy(() -> history.record(scheduler, "room", d("1"), 0)).isInstanceOf(ValidationException.class);
        assertThat(history.latest(scheduler, "room", 5)).isEmpty();
    }

    @Test
    void concurrentRecordsNeverExceedKeep() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < 200; i++) {
                        history.record(scheduler, "room", BigDecimal.valueOf(i), 7);
                        assertThat(history.latest(scheduler, "room", 100).size()).isLessThanOrEqualTo(7);
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(history.latest(scheduler, "room", 100)).hasSize(7);
    }
}
