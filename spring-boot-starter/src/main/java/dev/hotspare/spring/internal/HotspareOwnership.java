package dev.hotspare.spring.internal;

import dev.hotspare.ownership.runtime.OwnershipMember;
import dev.hotspare.spring.HotspareConfigurationException;
import dev.hotspare.spring.HotspareProperties;
import dev.hotspare.time.TaskScheduler;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * This application's membership in the group of instances that share its store, when {@code hotspare.ownership} is
 * on and the store is shared: the pools and the fleet track their keys on the one member, so each pool and each
 * scheduler runs in exactly one live instance. Closed (its leases released at once) when the context closes.
 */
public final class HotspareOwnership implements AutoCloseable {

    private final Optional<OwnershipMember> member;

    private HotspareOwnership(Optional<OwnershipMember> member) {
        this.member = member;
    }

    /**
     * The member for these settings, or none on memory or with {@code hotspare.ownership.enabled=false}.
     *
     * @param backend  the chosen store
     * @param settings {@code hotspare.ownership.*}
     * @param tasks    the runtime's scheduler
     * @param listener told of every key taken, handed over or lost (the application's KPI listeners)
     * @return the ownership of this application
     * @throws HotspareConfigurationException naming every bad {@code hotspare.ownership.*} property
     */
    public static HotspareOwnership of(Backend backend, HotspareProperties.Ownership settings, TaskScheduler tasks,
                                       dev.hotspare.ownership.runtime.OwnershipMember.OwnershipListener listener) {
        if (!settings.isEnabled() || backend.sharedLockStore().isEmpty()) {
            return new HotspareOwnership(Optional.empty());
        }
        String id = settings.getInstanceId().isBlank() ? defaultInstanceId() : settings.getInstanceId();
        try {
            return new HotspareOwnership(Optional.of(OwnershipMember.builder(id).lockStore(backend.sharedLockStore().get())
                    .scheduler(tasks).group(settings.getGroup()).leaseTtl(settings.getLeaseTtl()).heartbeat(settings.getHeartbeat())
                    .listener(listener).build()));
        } catch (ValidationException e) {
            List<Problem> named = e.problems().stream().map(p -> Problem.of(HotspareProperties.PREFIX + ".ownership."
                    + kebab(p.path()), p.value(), p.message())).toList();
            throw new HotspareConfigurationException(named);
        }
    }

    /**
     * The member, when this application divides work with others.
     *
     * @return the member, not started until a pool or the fleet starts
     */
    public Optional<OwnershipMember> member() {
        return member;
    }

    /**
     * What the {@code hotspareownership} actuator endpoint shows: the live instances and what each owns, or that
     * this application divides nothing.
     *
     * @return a JSON-ready map
     */
    public java.util.Map<String, Object> describe() {
        return OwnershipMember.describe(member,
                "this application runs every pool and scheduler (memory store, or hotspare.ownership.enabled=false)");
    }

    @Override
    public void close() {
        member.ifPresent(OwnershipMember::close);
    }

    /**
     * The host name (a pod's name on Kubernetes), the process id and four random characters, as one DNS-1123 label.
     *
     * @return the id an instance takes when {@code hotspare.ownership.instance-id} is empty
     */
    public static String defaultInstanceId() {
        return OwnershipMember.defaultInstanceId();
    }

    private static String kebab(String field) {
        return field.replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }
}
