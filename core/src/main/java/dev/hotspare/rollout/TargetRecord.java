package dev.hotspare.rollout;

import java.time.Instant;
import java.util.Optional;

/**
 * A target's progress in a rollout's state.
 *
 * @param target         the target ({@link TargetRef#services()} for the services op)
 * @param status         where it is
 * @param attempts       upgrade ops issued so far (for the services op: issues, including re-issues to a new leader)
 * @param prechecked     whether its precheck passed
 * @param version        the version it runs, as far as the rollout knows
 * @param retryAt        when the next attempt starts, while {@link TargetStatus#RETRY_WAIT}
 * @param message        the last message about it (agent message, skip reason, failure)
 * @param failedPrecheck whether it is FAILED because its precheck failed or timed out (it was left out of the upgrade)
 */
public record TargetRecord(TargetRef target, TargetStatus status, int attempts, boolean prechecked, String version,
                           Optional<Instant> retryAt, Optional<String> message, boolean failedPrecheck) {

    /**
     * Normalises absent values to empty ones.
     *
     * @param target         the target ({@link TargetRef#services()} for the services op)
     * @param status         where it is
     * @param attempts       upgrade ops issued so far (for the services op: issues, including re-issues to a new leader)
     * @param prechecked     whether its precheck passed
     * @param version        the version it runs, as far as the rollout knows
     * @param retryAt        when the next attempt starts, while {@link TargetStatus#RETRY_WAIT}
     * @param message        the last message about it (agent message, skip reason, failure)
     * @param failedPrecheck whether it is FAILED because its precheck failed or timed out (it was left out of the upgrade)
     */
    public TargetRecord {
        retryAt = retryAt == null ? Optional.empty() : retryAt;
        message = message == null ? Optional.empty() : message;
    }

    static TargetRecord of(TargetRef target, TargetStatus status, int attempts, String version, Optional<String> message) {
        return new TargetRecord(target, status, attempts, false, version, Optional.empty(), message, false);
    }

    TargetRecord with(TargetStatus newStatus, String newMessage) {
        return new TargetRecord(target, newStatus, attempts, prechecked, version,
                newStatus == TargetStatus.RETRY_WAIT ? retryAt : Optional.empty(), Optional.ofNullable(newMessage).or(() -> message),
                failedPrecheck);
    }

    TargetRecord withAttempts(int value) {
        return new TargetRecord(target, status, value, prechecked, version, retryAt, message, failedPrecheck);
    }

    TargetRecord withPrechecked() {
        return new TargetRecord(target, status, attempts, true, version, retryAt, message, failedPrecheck);
    }

    TargetRecord withFailedPrecheck(String why) {
        return new TargetRecord(target, TargetStatus.FAILED, attempts, false, version, Optional.empty(), Optional.of(why), true);
    }

    TargetRecord withVersion(String value) {
        return new TargetRecord(target, status, attempts, prechecked, value, retryAt, message, failedPrecheck);
    }

    TargetRecord retryingAt(Instant at, String why) {
        return new TargetRecord(target, TargetStatus.RETRY_WAIT, attempts, prechecked, version, Optional.of(at),
                Optional.of(why), failedPrecheck);
    }
}
