package dev.hotspare.fleet.runtime;

import dev.hotspare.fleet.versions.ConfigDiff;
import dev.hotspare.fleet.versions.SchedulerVersion;

/**
 * The diff route's answer.
 *
 * @param version1 the newer version compared
 * @param version2 the older version compared
 * @param diff     from {@code version2} to {@code version1}
 */
public record VersionDiff(SchedulerVersion version1, SchedulerVersion version2, ConfigDiff diff) {
}
