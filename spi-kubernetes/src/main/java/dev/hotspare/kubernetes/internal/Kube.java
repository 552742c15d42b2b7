package dev.hotspare.kubernetes.internal;

import dev.hotspare.spi.StoreUnavailableException;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.net.HttpURLConnection;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/** Label and annotation keys every object of this module carries, and the mapping of client errors. */
public final class Kube {

    /** {@code app.kubernetes.io/managed-by}: marks objects this module owns; every informer selects on it. */
    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    /** The value of {@link #MANAGED_BY} on this module's objects. */
    public static final String MANAGER = "hotspare";
    /** Label: the pool (or scheduler) a member belongs to. */
    public static final String POOL = "hotspare.dev/pool";
    /** Label: the member's id. */
    public static final String MEMBER = "hotspare.dev/member";
    /** Label: the template (scheduler) version the member was made from. */
    public static final String TEMPLATE_VERSION = "hotspare.dev/template-version";
    /** Label {@code "true"} on the Lease objects of the lock store, which lists them by it. */
    public static final String LOCK = "hotspare.dev/lock";

    /** Annotation: the power state hotspare wants for the member. */
    public static final String DESIRED_POWER = "hotspare.dev/desired-power";
    /** Annotation: the claim the member serves. */
    public static final String CLAIM = "hotspare.dev/claim";
    /** Annotation: when the member was claimed. */
    public static final String CLAIMED_AT = "hotspare.dev/claimed-at";
    /** Annotation: when the member's claim was released — the mark that lets the pool delete a claimed member. */
    public static final String RELEASED_AT = "hotspare.dev/released-at";
    /** Annotation: since when the member's claim has been missing from the claim store. */
    public static final String ORPHANED_SINCE = "hotspare.dev/orphaned-since";
    /** Annotation: the member's creation instant, with sub-second precision. */
    public static final String CREATED_AT = "hotspare.dev/created-at";
    /** Annotation on a Lease object: the fencing token of its current (or last) holder. */
    public static final String FENCING_TOKEN = "hotspare.dev/fencing-token";

    private Kube() {
    }

    private static final Pattern LABEL_VALUE = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");

    /**
     * Checks a template version, which becomes a label value: Kubernetes allows up to 63 letters, digits, '-',
     * '_' and '.', starting and ending with a letter or digit — so scheduler versions such as {@code v1.0} fit,
     * which a DNS-1123 label would refuse.
     */
    public static String requireTemplateVersion(String field, String value) {
        if (value == null || value.length() > 63 || !LABEL_VALUE.matcher(value).matches()) {
            throw new ValidationException(Problem.of(field, value == null ? Problem.MISSING : value,
                    "must be a Kubernetes label value: at most 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit"));
        }
        return value;
    }

    /** Whether the API server answered 409 Conflict (a stale resourceVersion, or the object exists). */
    public static boolean isConflict(KubernetesClientException e) {
        return e.getCode() == HttpURLConnection.HTTP_CONFLICT;
    }

    /** Whether the API server answered 404 Not Found. */
    public static boolean isNotFound(KubernetesClientException e) {
        return e.getCode() == HttpURLConnection.HTTP_NOT_FOUND;
    }

    /**
     * Whether the API server could not answer: no HTTP status at all (connection refused, reset, timeout),
     * throttling, or a server-side error. Everything else (403, 422, ...) is a bug or a misconfiguration and is
     * rethrown as it is.
     */
    public static boolean isUnavailable(KubernetesClientException e) {
        int code = e.getCode();
        return code <= 0 || code == 429 || code >= 500;
    }

    /** Whether the API server refused the credentials (401) or the permission (403). */
    public static boolean isRefused(KubernetesClientException e) {
        return e.getCode() == HttpURLConnection.HTTP_UNAUTHORIZED || e.getCode() == HttpURLConnection.HTTP_FORBIDDEN;
    }

    /**
     * Runs {@code call}, turning availability failures and refused credentials into
     * {@link StoreUnavailableException}s whose message names the real cause ({@link #describe}).
     */
    public static <T> T call(String store, String what, Supplier<T> call) {
        try {
            return call.get();
        } catch (KubernetesClientException e) {
            if (isUnavailable(e) || isRefused(e)) {
                throw new StoreUnavailableException(store, what + ": " + describe(e), e);
            }
            throw e;
        }
    }

    /**
     * What went wrong talking to the API server, in an operator's words: an unresolvable host, a refused or timed
     * out connection, a failed TLS handshake, refused credentials (401) or a missing permission (403, with the
     * server's own message naming the verb and resource), or the status the server answered.
     *
     * @param e the client's exception
     * @return one line naming the cause
     */
    public static String describe(KubernetesClientException e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof java.net.UnknownHostException unknown) {
                return "the API server's host cannot be resolved (" + unknown.getMessage() + "); check the kubeconfig's server URL and DNS";
            }
            if (cause instanceof java.net.ConnectException) {
                return "the connection to the API server was refused; is it running, and is the kubeconfig's server URL right?";
            }
            if (cause instanceof javax.net.ssl.SSLException ssl) {
                return "the TLS handshake with the API server failed (" + ssl.getMessage() + "); check its certificate authority";
            }
            if (cause instanceof java.net.SocketTimeoutException || cause instanceof java.net.http.HttpTimeoutException
                    || cause instanceof java.util.concurrent.TimeoutException) {
                return "the API server did not answer in time";
            }
        }
        String server = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : "";
        return switch (e.getCode()) {
            case HttpURLConnection.HTTP_UNAUTHORIZED -> "401 Unauthorized: the API server refused the credentials (an expired "
                    + "token, or a kubeconfig for another cluster)";
            case HttpURLConnection.HTTP_FORBIDDEN -> "403 Forbidden: the service account lacks a permission"
                    + (server.isEmpty() ? "" : ": " + server) + " (docs/kubernetes.md lists the RBAC rules)";
            case 429 -> "429 Too Many Requests: the API server is throttling this client";
            default -> e.getCode() > 0 ? e.getCode() + " from the API server" + (server.isEmpty() ? "" : ": " + server)
                    : "the API server could not be reached";
        };
    }
}
