/**
 * The auto-configurations Spring Boot loads from the starter (listed in
 * {@code META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports}): the core (properties,
 * task scheduler, store, pools), the fleet, Micrometer KPIs and health. Applications do not name these classes
 * except to exclude or order against one.
 */
package dev.hotspare.spring.autoconfigure;
