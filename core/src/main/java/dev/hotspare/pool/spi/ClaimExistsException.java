package dev.hotspare.pool.spi;

/** A claim was submitted under a name a live claim of the same pool already has. */
public final class ClaimExistsException extends RuntimeException {

    private final String claimName;

    public ClaimExistsException(String pool, String claimName) {
        super("claimName: bad value '" + claimName + "': a live claim of that name exists in pool '" + pool + "'");
        this.claimName = claimName;
    }

    public String claimName() {
        return claimName;
    }
}
