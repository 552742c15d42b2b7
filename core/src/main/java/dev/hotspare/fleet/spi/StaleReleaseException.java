package dev.hotspare.fleet.spi;

/**
 * A release save whose expected version is not the stored one: another owner saved the release since this one
 * read it. Nothing was changed; the caller stops driving the release (the other owner does).
 */
public final class StaleReleaseException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Names the scheduler and both versions.
     *
     * @param scheduler whose release was saved concurrently
     * @param expected  the version the caller read
     * @param stored    the version stored (0: none)
     */
    public StaleReleaseException(String scheduler, long expected, long stored) {
        super("release of scheduler " + scheduler + ": expected version " + expected + " but the store holds " + stored);
    }
}
