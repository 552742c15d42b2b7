package dev.hotspare.kubernetes;

import dev.hotspare.spi.StoreUnavailableException;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.net.HttpURLConnection;
import java.util.function.Supplier;

/** Label and annotation keys every object of this module carries, and the mapping of client errors. */
final class Kube {

    /** {@code app.kubernetes.io/managed-by}: marks objects this module owns; every informer selects on it. */
    static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    static final String MANAGER = "hotspare";
    static final String POOL = "hotspare.dev/pool";
    static final String MEMBER = "hotspare.dev/member";
    static final String TEMPLATE_VERSION = "hotspare.dev/template-version";
    static final String LOCK = "hotspare.dev/lock";

    static final String DESIRED_POWER = "hotspare.dev/desired-power";
    static final String CLAIM = "hotspare.dev/claim";
    static final String CLAIMED_AT = "hotspare.dev/claimed-at";
    static final String CREATED_AT = "hotspare.dev/created-at";
    static final String FENCING_TOKEN = "hotspare.dev/fencing-token";

    private Kube() {
    }

    private static final java.util.regex.Pattern LABEL_VALUE = java.util.regex.Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");

    /**
     * Checks a template version, which becomes a label value: Kubernetes allows up to 63 letters, digits, '-',
     * '_' and '.', starting and ending with a letter or digit — so scheduler versions such as {@code v1.0} fit,
     * which a DNS-1123 label would refuse.
     */
    static String requireTemplateVersion(String field, String value) {
        if (value == null || value.length() > 63 || !LABEL_VALUE.matcher(value).matches()) {
            throw new dev.hotspare.validation.ValidationException(dev.hotspare.validation.Problem.of(field,
                    value == null ? dev.hotspare.validation.Problem.MISSING : value,
                    "must be a Kubernetes label value: at most 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit"));
        }
        return value;
    }

    static boolean isConflict(KubernetesClientException e) {
        return e.getCode() == HttpURLConnection.HTTP_CONFLICT;
    }

    static boolean isNotFound(KubernetesClientException e) {
        return e.getCode() == HttpURLConnection.HTTP_NOT_FOUND;
    }

    /**
     * Whether the API server could not answer: no HTTP status at all (connection refused, reset, timeout),
     * throttling, or a server-side error. Everything else (403, 422, ...) is a bug or a misconfiguration and is
     * rethrown as it is.
     */
    static boolean isUnavailable(KubernetesClientException e) {
        int code = e.getCode();
        return code <= 0 || code == 429 || code >= 500;
    }

    /** Runs {@code call}, turning availability failures into {@link StoreUnavailableException}. */
    static <T> T call(String store, String what, Supplier<T> call) {
        try {
            return call.get();
        } catch (KubernetesClientException e) {
            if (isUnavailable(e)) {
                throw new StoreUnavailableException(store, what, e);
            }
            throw e;
        }
    }
}
