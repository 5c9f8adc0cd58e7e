import RMap
