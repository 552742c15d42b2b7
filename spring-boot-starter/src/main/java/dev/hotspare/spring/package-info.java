/**
 * Spring Boot auto-configuration for hotspare: pools declared under {@code hotspare.pools.<name>.*} become
 * {@link dev.hotspare.pool.runtime.PoolController} beans, {@code hotspare.fleet.enabled=true} adds a
 * {@link dev.hotspare.fleet.runtime.Fleet}, on the in-memory default or the store chosen with
 * {@code hotspare.store}, with Micrometer KPIs ({@link dev.hotspare.spring.HotspareMeterBinder}) and health
 * indicators when the application has them. {@link dev.hotspare.spring.HotspareProperties} documents every
 * property; the customizer interfaces adjust what the starter builds.
 */
package dev.hotspare.spring;
