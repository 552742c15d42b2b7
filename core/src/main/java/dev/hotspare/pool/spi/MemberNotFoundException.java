package dev.hotspare.pool.spi;

/** A {@link MemberDriver} call named a member that does not exist (any more). */
public final class MemberNotFoundException extends RuntimeException {

    private final String pool;
    private final String memberId;

    public MemberNotFoundException(String pool, String memberId) {
        super("member '" + memberId + "' not found in pool '" + pool + "'");
        this.pool = pool;
        this.memberId = memberId;
    }

    public String pool() {
        return pool;
    }

    public String memberId() {
        return memberId;
    }
}
