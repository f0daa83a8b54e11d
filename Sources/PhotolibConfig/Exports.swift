/// The daemon reads where things live (the socket, the config file) through this module too.
@_exported import PhotolibLocations
