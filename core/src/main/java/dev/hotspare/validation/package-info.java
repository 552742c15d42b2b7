/**
 * Input checks shared by every feature: {@link dev.hotspare.validation.Problem} (path, bad value, rule), {@link
 * dev.hotspare.validation.ValidationException} carrying every problem at once, name rules for Redis keys, SQL
 * identifiers and Kubernetes names, and did-you-mean suggestions.
 */
package dev.hotspare.validation;
