package dev.hotspare.fleet.versions;


import dev.hotspare.fleet.versions.ConfigDiff.ChangeKind;
import dev.hotspare.testkit.property.Gen;
import dev.hotspare.testkit.property.Property;

import static dev.hotspare.testkit.property.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

class SchedulerVersionProperties {

    @Property
    void textRoundTrips() {
        forAll(Gen.integers(1, 100_000), Gen.integers(0, 100_000)).check((major, minor) -> {
            SchedulerVersion version = new SchedulerVersion(major, minor);
            assertThat(SchedulerVersion.parse(version.toString())).isEqualTo(version);
            assertThat(version.toString()).isEqualTo("v" + major + "." + minor);
        });
    }

    @Property
    void everyNextReleaseIsNewerAndAMajorOneIsNewerThanAnyMinor() {
        forAll(Gen.integers(1, 1000), Gen.integers(0, 1000), Gen.integers(0, 1000)).check((major, minor, minorSteps) -> {
            SchedulerVersion version = new SchedulerVersion(major, minor);
            SchedulerVersion minors = version;
            for (int i = 0; i < minorSteps; i++) {
                minors = minors.nextMinor();
            }
            assertThat(version.nextMinor()).isGreaterThan(version);
            assertThat(version.nextMajor()).isGreaterThan(minors);
            assertThat(version.nextMajor().minor()).isZero();
            assertThat(version.next(ChangeKind.NONE)).isEqualTo(version);
        });
    }
}
