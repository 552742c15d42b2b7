package dev.hotspare.rollout;

import dev.hotspare.validation.Problems;

import java.util.Map;
import java.util.regex.Pattern;

/** Kubernetes-style label syntax checks shared by the spec and the inventory. */
final class Labels {

    private static final Pattern KEY = Pattern.compile("([a-z0-9]([-a-z0-9.]*[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");
    private static final Pattern VALUE = Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?");
    private static final Pattern VERSION = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._+-]*");

    private Labels() {
    }

    static void check(Problems problems, String path, Map<String, String> labels) {
        labels.forEach((key, value) -> {
            if (key == null || key.length() > 253 || !KEY.matcher(key).matches()) {
                problems.add(path, key, "label key must look like [prefix/]name: letters, digits, '-', '_', '.'");
            } else if (value == null || value.length() > 63 || !VALUE.matcher(value).matches()) {
                problems.add(path + "." + key, value, "label value must be at most 63 letters, digits, '-', '_', '.', alphanumeric at both ends");
            }
        });
    }

    static void checkVersion(Problems problems, String path, String version) {
        if (version == null) {
            problems.add(path, dev.hotspare.validation.Problem.MISSING, "required field is missing");
        } else if (version.length() > 128 || !VERSION.matcher(version).matches()) {
            problems.add(path, version, "version must be 1..128 letters, digits, '.', '_', '+', '-', starting with a letter or digit");
        }
    }
}
