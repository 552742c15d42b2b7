package dev.hotspare.testkit.servers;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MappingIterator;
import tools.jackson.dataformat.yaml.YAMLMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checks requests recorded by {@link MockKubernetes} against the RBAC rules of a YAML file (the {@code Role} and
 * {@code ClusterRole} documents in it): every (API group, resource, verb) the client under test used must be
 * granted there, so the rules a project ships are proven sufficient by its tests. Discovery requests
 * ({@code /api}, {@code /apis/<group>/<version>}, {@code /version}) are allowed to every authenticated user by
 * Kubernetes' built-in {@code system:discovery} role and are not checked; requests of the test's own
 * {@linkplain MockKubernetes#fixture fixture client} are left out.
 */
public final class RbacCoverage {

    private final Path file;

    /**
     * One permission: group/resource/verb.
     *
     * @param group    the API group, empty for the core group
     * @param resource the resource, with its subresource after a slash (e.g. {@code pods/status})
     * @param verb     the RBAC verb (get, list, watch, create, update, patch, delete, deletecollection)
     */
    public record Permission(String group, String resource, String verb) {

        /**
         * Checks every part is present.
         *
         * @param group the API group, empty for the core group
         * @param resource the resource, with its subresource after a slash (e.g. {@code pods/status})
         * @param verb the RBAC verb (get, list, watch, create, update, patch, delete, deletecollection)
         */
        public Permission {
            Objects.requireNonNull(group, "group");
            Objects.requireNonNull(resource, "resource");
            Objects.requireNonNull(verb, "verb");
        }

        @Override
        public String toString() {
            return verb + " " + (group.isEmpty() ? "" : group + "/") + resource;
        }
    }

    private RbacCoverage(Path file) {
        this.file = file;
    }

    /**
     * A check against the rules in {@code file}, read at every {@link #check} (so edits to it count).
     *
     * @param file the RBAC manifest to read
     */
    public static RbacCoverage of(Path file) {
        return new RbacCoverage(Objects.requireNonNull(file, "file"));
    }

    /**
     * The file the rules are read from.
     */
    public Path file() {
        return file;
    }

    /**
     * Fails (an {@link AssertionError}) naming every request whose permission the file does not grant.
     */
    public void check(List<MockKubernetes.Request> requests) {
        Set<Permission> granted = granted();
        List<String> missing = new ArrayList<>();
        for (MockKubernetes.Request request : requests) {
            if (request.fixture()) {
                continue;
            }
            permissionOf(request).ifPresent(p -> {
                if (!granted.contains(p)) {
                    missing.add(request + " needs " + p);
                }
            });
        }
        assertThat(missing).as("requests not covered by %s", file).isEmpty();
    }

    /**
     * Every permission the file grants.
     */
    public Set<Permission> granted() {
        Set<Permission> out = new HashSet<>();
        try (MappingIterator<JsonNode> docs = new YAMLMapper().readerFor(JsonNode.class).readValues(Files.readString(file))) {
            while (docs.hasNext()) {
                JsonNode doc = docs.next();
                String kind = doc.path("kind").asString();
                if (!kind.equals("Role") && !kind.equals("ClusterRole")) {
                    continue;
                }
                for (JsonNode rule : doc.path("rules")) {
                    for (JsonNode group : rule.path("apiGroups")) {
                        for (JsonNode resource : rule.path("resources")) {
                            for (JsonNode verb : rule.path("verbs")) {
                                out.add(new Permission(group.asString(), resource.asString(), verb.asString()));
                            }
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /**
     * The permission {@code request} needs; empty for discovery.
     *
     * @param request a request the mock server recorded
     * @throws IllegalArgumentException if the request's method has no RBAC verb
     */
    public static Optional<Permission> permissionOf(MockKubernetes.Request request) {
        URI uri = URI.create(request.path());
        String query = uri.getQuery() == null ? "" : uri.getQuery();
        List<String> parts = new ArrayList<>(List.of(uri.getPath().replaceFirst("^/", "").split("/")));
        String group;
        if (parts.get(0).equals("api") && parts.size() >= 2) {
            group = "";
            parts = parts.subList(2, parts.size());
        } else if (parts.get(0).equals("apis") && parts.size() >= 3) {
            group = parts.get(1);
            parts = parts.subList(3, parts.size());
        } else {
            return Optional.empty();
        }
        if (parts.size() >= 2 && parts.get(0).equals("namespaces") && parts.size() > 2) {
            parts = parts.subList(2, parts.size());
        }
        if (parts.isEmpty() || parts.get(0).isEmpty()) {
            return Optional.empty();
        }
        String resource = parts.get(0) + (parts.size() >= 3 ? "/" + parts.get(2) : "");
        boolean named = parts.size() >= 2;
        String verb = switch (request.method()) {
            case "GET" -> query.contains("watch=true") ? "watch" : named ? "get" : "list";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> named ? "delete" : "deletecollection";
            default -> throw new IllegalArgumentException("method: bad value '" + request.method() + "' in " + request
                    + ": no RBAC verb for it");
        };
        return Optional.of(new Permission(group, resource, verb));
    }
}
