package dev.hotspare.fleet.runtime;

/**
 * Error codes of scheduler operations, with the HTTP status Maestro's API answered for each, so a service
 * exposing the operations over HTTP can map them one to one.
 */
public enum ErrorCode {
    /** No scheduler of that name (404). */
    SCHEDULER_NOT_FOUND(404),
    /** The scheduler has no release of the requested version, or it has no previous version to compare with (404). */
    VERSION_NOT_FOUND(404),
    /** The name in the path differs from the name in the config body (400). */
    NAME_MISMATCH(400),
    /** A required field was not sent, e.g. the image of an image update (422). */
    MISSING_FIELD(422),
    /** The config or a parameter is invalid; the exception lists every problem (422). */
    INVALID_CONFIG(422),
    /** A scheduler of that name already exists (409). */
    ALREADY_EXISTS(409),
    /** Another operation holds a lock this one needs and the wait policy gave up (409). */
    LOCKED(409),
    /** The store or driver could not answer; retry later (503). */
    UNAVAILABLE(503);

    private final int httpStatus;

    ErrorCode(int httpStatus) {
        this.httpStatus = httpStatus;
    }

    /**
     * The HTTP status Maestro answered with for this error.
     */
    public int httpStatus() {
        return httpStatus;
    }
}
