// SesameService
