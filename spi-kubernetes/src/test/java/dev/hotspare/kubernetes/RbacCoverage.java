package dev.hotspare.kubernetes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checks requests recorded by the mock API server against the RBAC rules shipped in
 * {@code docs/kubernetes-rbac.yaml}: every (API group, resource, verb) the module used must be granted there.
 * Discovery requests ({@code /api}, {@code /apis/<group>/<version>}, {@code /version}) are allowed to every
 * authenticated user by Kubernetes' built-in {@code system:discovery} role and are not listed.
 */
final class RbacCoverage {

    static final Path RBAC_FILE = Path.of("..", "docs", "kubernetes-rbac.yaml");

    /** One permission: group/resource/verb. */
    record Permission(String group, String resource, String verb) {
        @Override
        public String toString() {
            return verb + " " + (group.isEmpty() ? "" : group + "/") + resource;
        }
    }

    private RbacCoverage() {
    }

    /** Fails naming every request whose permission the RBAC file does not grant. */
    static void check(List<MockKube.Request> requests) {
        Set<Permission> granted = granted();
        List<String> missing = new ArrayList<>();
        for (MockKube.Request request : requests) {
            if (request.fixture()) {
                continue;
            }
            permissionOf(request).ifPresent(p -> {
                if (!granted.contains(p)) {
                    missing.add(request + " needs " + p);
                }
            });
        }
        assertThat(missing).as("requests not covered by %s", RBAC_FILE).isEmpty();
    }

    /** Every permission the RBAC file grants. */
    static Set<Permission> granted() {
        Set<Permission> out = new HashSet<>();
        try (MappingIterator<JsonNode> docs = new YAMLMapper().readerFor(JsonNode.class).readValues(Files.readString(RBAC_FILE))) {
            while (docs.hasNext()) {
                JsonNode doc = docs.next();
                String kind = doc.path("kind").asText();
                if (!kind.equals("Role") && !kind.equals("ClusterRole")) {
                    continue;
                }
                for (JsonNode rule : doc.path("rules")) {
                    for (JsonNode group : rule.path("apiGroups")) {
                        for (JsonNode resource : rule.path("resources")) {
                            for (JsonNode verb : rule.path("verbs")) {
                                out.add(new Permission(group.asText(), resource.asText(), verb.asText()));
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

    /** The permission a request needs; empty for discovery. */
    static java.util.Optional<Permission> permissionOf(MockKube.Request request) {
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
            return java.util.Optional.empty();
        }
        if (parts.size() >= 2 && parts.get(0).equals("namespaces") && parts.size() > 2) {
            parts = parts.subList(2, parts.size());
        }
        if (parts.isEmpty() || parts.get(0).isEmpty()) {
            return java.util.Optional.empty();
        }
        String resource = parts.get(0) + (parts.size() >= 3 ? "/" + parts.get(2) : "");
        boolean named = parts.size() >= 2;
        String verb = switch (request.method()) {
            case "GET" -> query.contains("watch=true") ? "watch" : named ? "get" : "list";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> named ? "delete" : "deletecollection";
            default -> throw new IllegalArgumentException("unexpected method in " + request);
        };
        return java.util.Optional.of(new Permission(group, resource, verb));
    }
}
