package dev.hotspare.spi;

import java.util.Objects;

/**
 * Thrown by any SPI adapter when its backing service cannot answer: connection refused or lost, a timeout,
 * the server shutting down. It says nothing about the outcome of the call — a write may or may not have
 * been applied — so callers retry idempotent calls and let leases expire by TTL rather than assume either.
 *
 * <p>Adapters throw this and only this for availability problems (wrapping the client library's exception as
 * the cause), so runtime loops can tell "try again later" from a bug. Invalid arguments are reported with
 * {@link dev.hotspare.validation.ValidationException} or {@link IllegalArgumentException} before any I/O.
 */
public class StoreUnavailableException extends RuntimeException {

    private final String store;

    /**
     * @param store   a short name of the backend, e.g. {@code "redis lock store"}
     * @param message what was being attempted
     * @param cause   the client library's exception
     */
    public StoreUnavailableException(String store, String message, Throwable cause) {
        super(Objects.requireNonNull(store, "store") + " unavailable: " + message, cause);
        this.store = store;
    }

    /**
     * Same, when there is no underlying exception.
     *
     * @param store a short name of the backend, e.g. {@code "redis lock store"}
     * @param message what was being attempted
     */
    public StoreUnavailableException(String store, String message) {
        this(store, message, null);
    }

    /**
     * The backend that could not answer.
     */
    public String store() {
        return store;
    }
}
