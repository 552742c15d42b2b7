package dev.hotspare.fleet.autoscale.internal;

import dev.hotspare.fleet.PolicyTypes;
import dev.hotspare.fleet.PolicyTypes.PolicyParameter;
import dev.hotspare.fleet.PolicyTypes.PolicyParameters;
import dev.hotspare.fleet.PolicyTypes.TriggerTypes;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.autoscale.ScalingPolicy.PolicyContext;
import dev.hotspare.fleet.autoscale.ScalingPolicy.TargetPolicy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;

/**
 * Maestro 10's {@code roomOccupancy}: enough rooms for the matches in use plus a share of free match slots.
 * With M = running matches + allocated slots:
 * <pre>
 * desired rooms = ceil( ceil(M / (1 − readyTarget)) / maxMatchesPerRoom )
 * free slots    = A · maxMatchesPerRoom − running matches
 * scale down only when ceil(desired rooms · maxMatchesPerRoom · readyTarget) / free slots ≤ downThreshold
 * </pre>
 * in exact arithmetic (1 − 0.9 is 0.1, so one match at readyTarget 0.9 needs 10 slots). The scale-down guard is
 * Maestro's ({@code roomoccupancy/policy.go}): its current-state builder takes only running matches off the free
 * slots (allocated slots stay free), and with no free slot there is no scale-down (Maestro's division gives
 * +Inf or NaN, neither at or below the threshold).
 */
public final class RoomOccupancyPolicy implements TargetPolicy {

    @Override
    public String type() {
        return TriggerTypes.ROOM_OCCUPANCY;
    }

    @Override
    public List<PolicyParameter> parameters() {
        return PolicyTypes.ROOM_OCCUPANCY_PARAMETERS;
    }

    @Override
    public Target target(RoomStatusCounts counts, PolicyParameters parameters, PolicyContext context) {
        BigDecimal readyTarget = parameters.decimal("readyTarget");
        BigDecimal downThreshold = parameters.decimal("downThreshold");
        int maxMatches = parameters.whole("maxMatchesPerRoom");
        long matches = counts.usedSlots();
        long slots = slotsFor(matches, readyTarget);
        int rooms = Math.toIntExact(ceilDiv(slots, maxMatches));
        long total = (long) counts.active() * maxMatches;
        long free = total - counts.runningMatches();
        long kept = keptFree(rooms, maxMatches, readyTarget);
        // kept / free <= downThreshold, without dividing (free > 0).
        boolean mayScaleDown = free > 0
                && BigDecimal.valueOf(kept).compareTo(downThreshold.multiply(BigDecimal.valueOf(free))) <= 0;
        return new Target(rooms, mayScaleDown, matches + " matches need ceil(" + matches + " / (1 - "
                + readyTarget.toPlainString() + ")) = " + slots + " slots = " + rooms + " rooms of " + maxMatches
                + "; ceil(" + rooms + " x " + maxMatches + " x " + readyTarget.toPlainString() + ") = " + kept
                + " of " + free + " free slots"
                + (mayScaleDown ? "" : ", above downThreshold " + downThreshold.toPlainString() + ": no scale-down"));
    }

    /**
     * ceil(desiredRooms · maxMatchesPerRoom · readyTarget), exactly: the numerator of Maestro's scale-down guard.
     *
     * @param desiredRooms the rooms the policy wants
     * @param maxMatches   slots per room
     * @param readyTarget  the share of slots to keep free
     * @return the slots the desired rooms keep free
     */
    public static long keptFree(long desiredRooms, int maxMatches, BigDecimal readyTarget) {
        return BigDecimal.valueOf(desiredRooms).multiply(BigDecimal.valueOf(maxMatches)).multiply(readyTarget)
                .setScale(0, java.math.RoundingMode.CEILING).longValueExact();
    }

    /**
     * ceil(matches / (1 − readyTarget)), exactly.
     *
     * @param matches     matches in use
     * @param readyTarget the share of slots to keep free, 0 &lt; readyTarget &lt; 1
     * @return the slots needed
     */
    public static long slotsFor(long matches, BigDecimal readyTarget) {
        BigDecimal free = BigDecimal.ONE.subtract(readyTarget);
        // matches / (u / 10^s) = matches · 10^s / u, a ceiling of whole numbers.
        BigInteger numerator = BigInteger.valueOf(matches).multiply(BigInteger.TEN.pow(Math.max(0, free.scale())));
        BigInteger denominator = free.unscaledValue().multiply(BigInteger.TEN.pow(Math.max(0, -free.scale())));
        BigInteger[] qr = numerator.divideAndRemainder(denominator);
        return qr[0].add(qr[1].signum() > 0 ? BigInteger.ONE : BigInteger.ZERO).longValueExact();
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
