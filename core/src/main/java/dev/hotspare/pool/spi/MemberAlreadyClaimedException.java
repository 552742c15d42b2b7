package dev.hotspare.pool.spi;

/** A member was about to be given to a claim while another claim holds it; nothing was written. */
public final class MemberAlreadyClaimedException extends RuntimeException {

    private final String memberId;
    private final String heldBy;

    public MemberAlreadyClaimedException(String pool, String memberId, String heldBy, String wanted) {
        super("member '" + memberId + "' of pool '" + pool + "' is held by claim '" + heldBy
                + "'; refusing to give it to claim '" + wanted + "'");
        this.memberId = memberId;
        this.heldBy = heldBy;
    }

    public String memberId() {
        return memberId;
    }

    /** The claim that holds the member. */
    public String heldBy() {
        return heldBy;
    }
}
