package dev.hotspare.pool.spi;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OrderedDeliveryTest {

    @Test
    void anEventQueuedWhileDeliveringIsDeliveredAfterTheOneInHandNotInsideIt() {
        List<String> seen = new ArrayList<>();
        AtomicReference<OrderedDelivery<String>> delivery = new AtomicReference<>();
        delivery.set(new OrderedDelivery<>(event -> {
            seen.add("start " + event);
            if (event.equals("a")) {
                // A listener that changes the driver again: its event waits for this one to finish.
                delivery.get().add("b");
                delivery.get().deliver();
            }
            seen.add("end " + event);
        }));
        delivery.get().add("a");
        delivery.get().deliver();

        assertThat(seen).containsExactly("start a", "end a", "start b", "end b");
    }

    @Test
    void aFailingConsumerThrowsToItsCallerAndTheRestStaysQueuedForTheNextDelivery() {
        List<String> seen = new ArrayList<>();
        OrderedDelivery<String> delivery = new OrderedDelivery<>(event -> {
            if (event.equals("bad")) {
                throw new IllegalStateException("listener failed");
            }
            seen.add(event);
        });
        delivery.add("one");
        delivery.add("bad");
        delivery.add("two");

        assertThatThrownBy(delivery::deliver).hasMessage("listener failed");
        assertThat(seen).containsExactly("one");
        delivery.deliver();
        assertThat(seen).containsExactly("one", "two");
    }
}
