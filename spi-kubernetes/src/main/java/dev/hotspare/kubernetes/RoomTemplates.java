package dev.hotspare.kubernetes;

import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.kubernetes.internal.Kube;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where {@link PodMemberDriver} finds the {@link SchedulerConfig} a room pod is made from: the pool is the
 * scheduler, the member's template version is the scheduler version. Back it with your scheduler store
 * (a lambda over {@code SchedulerStore}) or with the {@link #registry() registry} below.
 */
@FunctionalInterface
public interface RoomTemplates {

    /**
     * The config of {@code scheduler} at {@code templateVersion}, if known.
     */
    Optional<SchedulerConfig> find(String scheduler, String templateVersion);

    /**
     * An empty, thread-safe registry to register configs in.
     */
    static Registry registry() {
        return new Registry();
    }

    /** Configs registered by (scheduler name, version). */
    final class Registry implements RoomTemplates {
        private final Map<String, SchedulerConfig> configs = new ConcurrentHashMap<>();

        private Registry() {
        }

        /**
         * Registers {@code config} as version {@code templateVersion} of scheduler {@code config.name()}.
         *
         * @throws ValidationException with every problem of the config or the version
         */
        public Registry register(String templateVersion, SchedulerConfig config) {
            Kube.requireTemplateVersion("templateVersion", templateVersion);
            List<Problem> problems = config.validate();
            if (!problems.isEmpty()) {
                throw new ValidationException(problems);
            }
            configs.put(config.name() + "/" + templateVersion, config);
            return this;
        }

        @Override
        public Optional<SchedulerConfig> find(String scheduler, String templateVersion) {
            return Optional.ofNullable(configs.get(scheduler + "/" + templateVersion));
        }
    }
}
