package dev.hotspare.fleet.autoscale;

import dev.hotspare.fleet.PolicyParameter;
import dev.hotspare.fleet.PolicyParameters;
import dev.hotspare.fleet.PolicyTypes;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.TriggerTypes;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;

/**
 * Maestro 10's {@code roomOccupancy}: enough rooms for the matches in use plus a share of free match slots.
 * With M = running matches + allocated slots:
 * <pre>
 * desired rooms = ceil( ceil(M / (1 − readyTarget)) / maxMatchesPerRoom )
 * </pre>
 * in exact arithmetic (1 − 0.9 is 0.1, so one match at readyTarget 0.9 needs 10 slots). A target below the current
 * rooms A is acted on only when the free-slot ratio (A · maxMatchesPerRoom − M) / (A · maxMatchesPerRoom) is at or
 * below {@code downThreshold}.
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
        boolean mayScaleDown = total == 0 || BigDecimal.valueOf(total - matches)
                .compareTo(downThreshold.multiply(BigDecimal.valueOf(total))) <= 0;
        return new Target(rooms, mayScaleDown, matches + " matches need ceil(" + matches + " / (1 - "
                + readyTarget.toPlainString() + ")) = " + slots + " slots = " + rooms + " rooms of " + maxMatches
                + "; free slots " + (total - matches) + " of " + total
                + (mayScaleDown ? "" : ", above downThreshold " + downThreshold.toPlainString() + ": no scale-down"));
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
