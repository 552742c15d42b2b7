package dev.hotspare.validation;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects {@link Problem}s while checking an input, then throws them all at once.
 * Not thread-safe; create one per validation.
 */
public final class Problems {

    /** Made on the first problem: most inputs have none, and records validate on every construction. */
    private List<Problem> found = List.of();

    /**
     * Records a problem at {@code path}.
     */
    public Problems add(String path, Object value, String message) {
        if (found.isEmpty()) {
            found = new ArrayList<>();
        }
        found.add(Problem.of(path, value, message));
        return this;
    }

    /**
     * Records a problem when {@code condition} is false.
     */
    public Problems require(boolean condition, String path, Object value, String message) {
        if (!condition) {
            add(path, value, message);
        }
        return this;
    }

    /**
     * Records every problem in {@code others}.
     */
    public Problems addAll(List<Problem> others) {
        if (others.isEmpty()) {
            return this;
        }
        if (found.isEmpty()) {
            found = new ArrayList<>();
        }
        found.addAll(others);
        return this;
    }

    public boolean isEmpty() {
        return found.isEmpty();
    }

    /**
     * A snapshot of what was found so far.
     */
    public List<Problem> list() {
        return List.copyOf(found);
    }

    /** Throws a {@link ValidationException} with everything found, if anything was. */
    public void throwIfAny() {
        if (!found.isEmpty()) {
            throw new ValidationException(found);
        }
    }
}
