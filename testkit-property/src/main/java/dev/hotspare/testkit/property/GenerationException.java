package dev.hotspare.testkit.property;

/**
 * A generator could not make a value: a {@link Gen#filter} rejected too many in a row, or distinct elements ran out.
 * In a run it fails the property (the generator needs changing); while shrinking it only rules out a candidate.
 */
public final class GenerationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what could not be generated
     */
    public GenerationException(String message) {
        super(message);
    }
}
