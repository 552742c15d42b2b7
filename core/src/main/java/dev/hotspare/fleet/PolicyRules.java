package dev.hotspare.fleet;

import dev.hotspare.fleet.PolicyTypes.PolicyParameters;
import dev.hotspare.fleet.PolicyTypes.PolicyType;
import dev.hotspare.fleet.SchedulerConfig.Autoscaling;
import dev.hotspare.fleet.SchedulerConfig.MaxSurge;
import dev.hotspare.fleet.SchedulerConfig.MetricsTrigger;
import dev.hotspare.fleet.SchedulerConfig.PolicySpec;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.Problems;
import dev.hotspare.validation.Suggestions;
import dev.hotspare.validation.ValidationException;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The config rules of the Maestro 10 additions, kept apart from the Maestro 9 rules in
 * {@link SchedulerConfigValidator}: {@code autoscaling.policy} and policy parameters, {@code maxSurge}, and the
 * webhook settings of forwarders.
 */
final class PolicyRules {

    /** The forwarder plugin that posts events to a URL. */
    static final String WEBHOOK = "webhook";
    /** Longest webhook timeout, seconds. */
    static final long MAX_TIMEOUT_SECONDS = 300;
    /** Most retries of a webhook delivery. */
    static final int MAX_RETRIES = 10;

    private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");
    /** Headers the JDK's HTTP client sets itself and refuses to take from a caller. */
    private static final Set<String> RESTRICTED_HEADERS = Set.of("connection", "content-length", "expect", "host", "upgrade");

    private PolicyRules() {
    }

    /** {@code autoscaling.policy}: a known policy (not a trigger type), its parameters, and no triggers beside it. */
    static void policy(Autoscaling a, PolicyTypes types, Problems p) {
        if (a.policy().isEmpty()) {
            return;
        }
        PolicySpec spec = a.policy().get();
        Set<String> policies = types.names(PolicyType.Kind.TARGET);
        boolean triggers = !a.up().metricsTrigger().isEmpty() || a.up().trigger().isPresent()
                || !a.down().metricsTrigger().isEmpty() || a.down().trigger().isPresent();
        if (triggers) {
            p.add("autoscaling.policy", spec.type(), "use either autoscaling.policy or triggers in autoscaling.up / "
                    + "autoscaling.down, not both (their cooldowns apply to the policy)");
        }
        if (spec.type().isBlank()) {
            p.add("autoscaling.policy.type", Problem.MISSING, "must name a policy; known policies: " + String.join(", ", policies));
            return;
        }
        Optional<PolicyType> type = types.get(spec.type());
        if (type.isEmpty()) {
            String hint = Suggestions.closest(spec.type(), policies).map(s -> "did you mean '" + s + "'? ").orElse("");
            p.add("autoscaling.policy.type", spec.type(), "unknown policy; " + hint + "known policies: " + String.join(", ", policies));
            return;
        }
        if (type.get().kind() != PolicyType.Kind.TARGET) {
            p.add("autoscaling.policy.type", spec.type(), "'" + spec.type() + "' is a trigger type: name it in "
                    + "autoscaling.up / down metricsTrigger; policies: " + String.join(", ", policies));
            return;
        }
        parameters("autoscaling.policy.parameters", type.get(), spec.parameters(), p);
    }

    /** A trigger's parameters, against what its type declares (types known only by name are not checked). */
    static void triggerParameters(String path, MetricsTrigger trigger, PolicyTypes types, Problems p) {
        types.get(trigger.type()).filter(t -> t.declared() && t.kind() == PolicyType.Kind.TRIGGER)
                .ifPresent(type -> parameters(path + ".parameters", type, trigger.parameters(), p));
    }

    private static void parameters(String path, PolicyType type, Map<String, Object> raw, Problems p) {
        Problems own = new Problems();
        PolicyParameters values = PolicyParameters.read(type.parameters(), raw, path, own);
        if (own.isEmpty()) {
            own.addAll(type.check().check(values, path));
        }
        p.addAll(own.list());
    }

    /** {@code maxSurge}: "25%" or a number of rooms. */
    static void maxSurge(SchedulerConfig config, Problems p) {
        config.maxSurge().ifPresent(text -> {
            try {
                MaxSurge.parse("maxSurge", text);
            } catch (ValidationException e) {
                p.addAll(e.problems());
            }
        });
    }

    /** The webhook settings of every forwarder: URL, timeout, retries, headers; a webhook forwarder needs a URL. */
    static void forwarders(SchedulerConfig config, Problems p) {
        config.forwarders().forEach((plugin, byName) -> byName.forEach((name, settings) -> {
            String path = "forwarders." + plugin + "." + name;
            if (plugin.equals(WEBHOOK) && settings.url().isEmpty()) {
                p.add(path + ".url", Problem.MISSING, "a webhook forwarder needs the http or https URL it posts events to");
            }
            settings.url().ifPresent(url -> url(path + ".url", url, p));
            settings.timeout().ifPresent(t -> p.require(t >= 1 && t <= MAX_TIMEOUT_SECONDS, path + ".timeout", t,
                    "must be between 1 and " + MAX_TIMEOUT_SECONDS + " seconds"));
            settings.retries().ifPresent(r -> p.require(r >= 0 && r <= MAX_RETRIES, path + ".retries", r,
                    "must be between 0 and " + MAX_RETRIES));
            settings.headers().forEach((header, value) -> {
                if (!HEADER_NAME.matcher(header).matches()) {
                    p.add(path + ".headers." + header, header, "not a valid HTTP header name");
                } else if (RESTRICTED_HEADERS.contains(header.toLowerCase(Locale.ROOT))) {
                    p.add(path + ".headers." + header, header, "set by the HTTP client itself; remove it");
                }
                if (value == null || value.chars().anyMatch(c -> c == '\r' || c == '\n' || c == 0)) {
                    p.add(path + ".headers." + header, value == null ? Problem.MISSING : "<value with a line break>",
                            "a header value is one line of text");
                }
            });
        }));
    }

    private static void url(String path, String url, Problems p) {
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
                p.add(path, url, "must be an absolute http or https URL, e.g. https://matchmaker.example/events");
            }
        } catch (URISyntaxException e) {
            p.add(path, url, "not a URL: " + e.getReason());
        }
    }
}
