package dev.hotspare.fleet.versions;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

import static org.assertj.core.api.Assertions.assertThat;

class SchedulerVersionProperties {

    @Property
    void textRoundTrips(@ForAll @IntRange(min = 1, max = 100_000) int major, @ForAll @IntRange(min = 0, max = 100_000) int minor) {
        SchedulerVersion version = new SchedulerVersion(major, minor);
        assertThat(SchedulerVersion.parse(version.toString())).isEqualTo(version);
        assertThat(version.toString()).isEqualTo("v" + major + "." + minor);
    }

    @Property
    void everyNextReleaseIsNewerAndAMajorOneIsNewerThanAnyMinor(@ForAll @IntRange(min = 1, max = 1000) int major,
                                                                @ForAll @IntRange(min = 0, max = 1000) int minor,
                                                                @ForAll @IntRange(min = 0, max = 1000) int minorSteps) {
        SchedulerVersion version = new SchedulerVersion(major, minor);
        SchedulerVersion minors = version;
        for (int i = 0; i < minorSteps; i++) {
            minors = minors.nextMinor();
        }
        assertThat(version.nextMinor()).isGreaterThan(version);
        assertThat(version.nextMajor()).isGreaterThan(minors);
        assertThat(version.nextMajor().minor()).isZero();
        assertThat(version.next(ChangeKind.NONE)).isEqualTo(version);
    }
}
